"""The interpreter's hot paths (issue 18: method calls, folded constants, tensor attribute
writes) behave as the general paths and as CPython."""
import pytest

from lang_helpers import headline, python_oracle, run

SAME_AS_PYTHON = [
    # a method call fetches the attribute before its arguments run
    "x = [1]\ntry:\n    x.nope(undefined_name)\nexcept AttributeError as e:\n    print('attr', e)",
    "x = [1]\nx.append(2)\nx.append([3])\nprint(x, x.count(2), x.index([3]))",
    "d = {}\nd.setdefault('a', []).append(1)\nprint(d, 'a b'.split(), ' '.join(['x', 'y']))",
    "class A:\n    def append(self, v):\n        return v * 2\nprint(A().append(4))",
    "print(-1, -2.5, +3, -(2), -True, (32,), (), (1, 'a', None), -(-1))",
    "t = (32,)\nu = (32,)\nprint(t == u, t + u, isinstance(t, tuple))",
    "def f():\n    return (1, 2)\nprint(f() is f(), f())",
]


@pytest.mark.parametrize("src", SAME_AS_PYTHON)
def test_hot_paths_print_what_python_prints(src):
    out, result = run(src)
    expected_out, expected_error = python_oracle(src)
    assert (out, headline(result)) == (expected_out, expected_error)


def test_append_keeps_the_item_cap():
    out, result = run("x = []\nfor i in range(10):\n    x.append(i)\n", max_items=5)
    assert not result.ok
    assert "--max-items" in result.errors[0].format()


def test_torch_function_and_tensor_method_calls_in_a_loop():
    out, result = run("import torch\nx = torch.ones(3)\nfor i in range(3):\n"
                      "    y = torch.tanh(x).view(3, 1).sum()\n"
                      "    x.grad = None\nprint(round(y.item(), 4))\n"
                      "try:\n    torch.nope(1)\nexcept AttributeError as e:\n    print(e)\n")
    assert result.ok, result.errors
    assert out == "2.2848\nmodule 'torch' has no attribute 'nope'\n"


def test_tensor_attribute_writes_still_refuse_other_names():
    out, result = run("import torch\nx = torch.ones(2)\nx.grad = None\nx.foo = 1\n")
    assert not result.ok
    assert "cannot assign to attribute 'foo'" in result.errors[0].format()
