"""Errors are values: exact message, place, source line, hint; syntax errors run nothing."""
from lang_helpers import headline, run


def test_syntax_error_anywhere_runs_nothing():
    out, r = run("print('first')\nx = (1,\nprint('never')\n")
    assert out == ""
    assert r.syntax_error and not r.ok
    err = r.errors[0]
    assert err.kind == "syntax" and err.type_name == "SyntaxError" and err.line == 2
    assert "^" in err.format()


def test_compile_time_python_errors_are_syntax_errors():
    for src, msg in [("print(1)\nbreak\n", "'break' outside loop"),
                     ("continue\n", "'continue' outside loop"),
                     ("return 5\n", "'return' outside function"),
                     ("def f(a, a):\n    pass\n", "duplicate argument 'a' in function definition")]:
        out, r = run(src)
        assert out == "" and r.syntax_error, src
        assert r.errors[0].message == msg


def test_runtime_error_location_is_innermost_statement():
    src = "def inner(v):\n    w = v + 1\n    return w / 0\n\ndef outer():\n    return inner(1)\n\nouter()\n"
    _, r = run(src)
    err = r.errors[0]
    assert (err.type_name, err.message, err.line) == ("ZeroDivisionError", "division by zero", 3)
    assert err.source_line == "    return w / 0"
    text = err.format()
    assert text.splitlines() == ["case.py:3 (in the statement at line 8)", "    return w / 0",
                                 "           ~~^~~", "ZeroDivisionError: division by zero"]


def test_first_error_stops_unless_keep_going():
    src = "print(1)\n1/0\nprint(2)\n[][0]\nprint(3)\n"
    out, r = run(src)
    assert out == "1\n" and len(r.errors) == 1
    out, r = run(src, keep_going=True)
    assert out == "1\n2\n3\n"
    assert [e.line for e in r.errors] == [2, 4] and not r.ok
    assert [s.error is None for s in r.statements] == [True, False, True, False, True]


def test_name_error_did_you_mean():
    _, r = run("values = 3\nprint(valuse)\n")
    err = r.errors[0]
    assert err.headline == "NameError: name 'valuse' is not defined"
    assert err.hint == "did you mean 'values'?"
    _, r = run("y = exq(1.0)\n")
    assert r.errors[0].hint == "did you mean 'exp'?"


def test_attribute_did_you_mean_on_tensor():
    _, r = run("import torch\nx = torch.ones(2)\nx.requires_gard\n")
    err = r.errors[0]
    assert err.headline == "AttributeError: 'Tensor' object has no attribute 'requires_gard'"
    assert err.hint == "did you mean .requires_grad?"


def test_nonscalar_backward_hint_names_the_tensor():
    _, r = run("import torch\nw = torch.ones(2, requires_grad=True)\nloss = w * 3\nloss.backward()\n")
    err = r.errors[0]
    assert err.headline == "RuntimeError: grad can be implicitly created only for scalar outputs"
    assert "loss.backward(torch.ones_like(loss))" in err.hint
    assert err.format().splitlines()[-1].startswith("hint: ")


def test_unsupported_constructs_name_the_construct():
    cases = {
        "async def g():\n    pass\n": "'async def' is not supported in gradrepl",
        "x = 1\ndef g():\n    global x\n": "'global' is not supported in gradrepl",
        "match 1:\n    case 1:\n        pass\n": "'match' is not supported in gradrepl",
        "class A:\n    def __repr__(self):\n        return 'a'\n":
            "defining the special method 'repr' in a class (__init__ is the only one a gradrepl "
            "class may define) is not supported in gradrepl",
        "class A(metaclass=type):\n    pass\n":
            "a class keyword (metaclass=...) is not supported in gradrepl",
        "@f\nclass A:\n    pass\n": "a class decorator is not supported in gradrepl",
        "class A(int, str):\n    pass\n":
            "a class with base <class 'int'> is not supported in gradrepl (a base is one of your own "
            "classes, nn.Module, a Dataset, an exception class or torch.autograd.Function)",
    }
    for src, msg in cases.items():
        _, r = run(src)
        assert headline(r) == f"SyntaxError: {msg}", src
        assert not r.syntax_error     # refused when reached, not a parse failure


def test_refused_statement_reports_its_line_and_the_next_runs():
    out, r = run("print('a')\nimport os\nprint('b')\n", keep_going=True)
    assert out == "a\nb\n"
    assert r.errors[0].line == 2
    assert r.errors[0].headline == "ImportError: import of 'os' is not allowed in gradrepl " \
                                   "(only torch, numpy, math and random)"


def test_control_characters_escaped_in_output_and_errors():
    out, r = run("print('a\\x1b[31mb\\tc\\nd\\x07\\x9b')\nraise ValueError('bad\\x1b[2J')\n")
    assert out == "a\\x1b[31mb\tc\nd\\x07\\x9b\n"
    assert "\x1b" not in r.errors[0].format()
    assert "bad\\x1b[2J" in r.errors[0].format()


def test_host_words_never_echoed_in_reports():
    _, r = run("x = 1\nprint(undefined_name, '__builtins__')\n")
    text = r.errors[0].format()
    assert "__builtins__" not in text and "undefined_name" in text


def test_exit_only_in_trusted_mode():
    out, r = run("print(1)\nexit()\nprint(2)\n", trusted=True)
    assert out == "1\n" and r.exit_requested and r.ok
    out, r = run("exit()\n")
    assert headline(r) == "NameError: name 'exit' is not defined"


def test_name_error_points_at_the_import_that_offers_it():
    _, r = run("x = Variable(torch.ones(2))\n")
    assert r.errors[0].hint == "it lives in torch.autograd: from torch.autograd import Variable"
    _, r = run("mse_loss\n")
    assert r.errors[0].hint == "it lives in torch.nn.functional: from torch.nn.functional import mse_loss"


def test_a_torch_op_missing_an_argument_says_so_as_pytorch():
    """PyTorch's C++ parser: `missing 1 required positional arguments: "dim"` (its plural);
    a learner's own function and PyTorch's Python functions keep Python's message."""
    for src, want in [
        ("import torch\ntorch.ones(3).cumsum()\n", 'cumsum() missing 1 required positional arguments: "dim"'),
        ("import torch\ntorch.cumsum(torch.ones(3))\n", 'cumsum() missing 1 required positional arguments: "dim"'),
        ("import torch\ntorch.ones(2, 3).gather(1)\n", 'gather() missing 1 required positional arguments: "index"'),
        ("import torch\ntorch.ones(2, 2).matmul()\n", 'matmul() missing 1 required positional arguments: "other"'),
        ("import torch\ntry:\n    torch.ones(3).topk()\nexcept TypeError as e:\n    print(e)\n", None),
        ("import torch\ntorch.ones(3).split()\n", "split() missing 1 required positional argument: 'split_size'"),
        ("def cumsum(x, dim):\n    return x\ncumsum(1)\n", "cumsum() missing 1 required positional argument: 'dim'"),
    ]:
        out, r = run(src)
        if want is None:
            assert out == 'topk() missing 1 required positional arguments: "k"\n'
        else:
            assert headline(r) == "TypeError: " + want, src
