"""The sandbox rules, one by one (policy.py): what user code can never reach."""
import pathlib
import pytest
from lang_helpers import headline, run


@pytest.mark.parametrize("src", [
    "().__class__\n", "x = 1\nx.__class__\n", "print.__self__\n", "_x = 1\n", "__import__('os')\n",
    "def f(_a):\n    pass\n", "f(_a=1)\n", "import torch as _t\n", "from torch import _C\n",
    "try:\n    pass\nexcept Exception as _e:\n    pass\n", "[_ for _q in [1]]\n",
])
def test_underscore_names_are_refused(src):
    out, r = run(src)
    assert not r.ok and r.errors[0].type_name in ("AttributeError", "NameError", "TypeError")
    assert "'_'" in r.errors[0].message


def test_bare_underscore_is_an_ordinary_variable():
    out, r = run("_ = 5\n_ + 1\n")
    assert out == "6\n" and r.ok


def test_dunder_keys_in_double_star_refused():
    _, r = run("def f(**k):\n    return k\nf(**{'__class__': 1})\n")
    assert r.errors[0].message == ("keyword argument '__class__' is not allowed in gradrepl "
                                   "(names starting with '_' are refused)")


@pytest.mark.parametrize("name", ["vars", "globals", "locals", "open", "exec", "eval",
                                  "compile", "input", "breakpoint", "object", "exit",
                                  "quit", "memoryview", "classmethod", "staticmethod"])
def test_dangerous_builtins_do_not_exist(name):
    # help and dir exist (issue 17) as gradrepl's own: tests/lang/test_docs.py checks what they show
    _, r = run(f"{name}\n")
    assert headline(r) == f"NameError: name '{name}' is not defined"


@pytest.mark.parametrize("src, message", [
    ("import os\n", "import of 'os' is not allowed in gradrepl (only torch, numpy, math and random)"),
    ("import os.path as p\n", "import of 'os' is not allowed in gradrepl (only torch, numpy, math and random)"),
    ("import timeit\n", "import of 'timeit' is not allowed in gradrepl (only torch, numpy, math and random)"),
    ("from subprocess import run\n", "import of 'subprocess' is not allowed in gradrepl "
                                     "(only torch, numpy, math and random)"),
    ("import numpy.ctypeslib\n", "numpy.ctypeslib is not offered by gradrepl (no files, no raw memory, no host "
                                  "objects)"),
    ("from numpy import load\n", "numpy.load is not offered by gradrepl (no files, no raw memory, no host objects)"),
    ("import torch.optim.swa_utils\n", "No module named 'torch.optim.swa_utils' in gradrepl"),
    ("from torch.nn import Transformers\n", "cannot import name 'Transformers' from 'torch.nn'"),
    ("from . import x\n", "relative imports are not allowed in gradrepl"),
    ("import math.os\n", "No module named 'math.os'; 'math' is not a package"),
    ("import torch.utils.tensorboard\n", "No module named 'torch.utils.tensorboard' in gradrepl"),
    ("from torch.jit import script\n", "torch.jit is not available in gradrepl"),
    ("import torch.os\n", "No module named 'torch.os' in gradrepl"),
])
def test_imports_outside_the_facade_are_refused(src, message):
    _, r = run(src)
    assert r.errors[0].message == message


def test_allowed_imports():
    src = ("import torch as t\nimport torch.nn.functional as F\nfrom torch.autograd import Variable\n"
           "from torch.autograd.functional import jacobian, hessian\nimport math\nimport torch.autograd\n"
           "from math import sqrt as root\nprint(t is torch, root(4.0), F.relu(t.tensor([-1.0, 2.0])))\n")
    out, r = run(src)
    assert r.ok, r.errors
    assert out == "True 2.0 tensor([0., 2.])\n"


@pytest.mark.parametrize("src, message", [
    ("import math\nmath.sqrt = print\n", "cannot assign to 'math.sqrt': modules are read-only in gradrepl"),
    ("import math\nmath.pi += 1\n", "cannot assign to 'math.pi': modules are read-only in gradrepl"),
    ("torch.tensor = print\n", "cannot assign to 'torch.tensor': modules are read-only in gradrepl"),
    ("torch.autograd.Variable = 1\n",
     "cannot assign to 'torch.autograd.Variable': modules are read-only in gradrepl"),
    ("x = torch.ones(2)\nx.backward = print\n",
     "cannot assign to attribute 'backward' of 'Tensor' object: it is read-only in gradrepl"),
    ("def f():\n    pass\nf.attr = 1\n",
     "cannot assign to attribute 'attr' of 'function' object: it is read-only in gradrepl"),
    ("x = [1]\nx.append = 2\n",
     "cannot assign to attribute 'append' of 'list' object: it is read-only in gradrepl"),
    ("y = (torch.ones(1, requires_grad=True) * 2)\ny.grad_fn.name = 1\n",
     "cannot assign to attribute 'name' of 'MulBackward0' object: it is read-only in gradrepl"),
])
def test_facades_are_read_only(src, message):
    _, r = run(src)
    assert r.errors[0].message == message
    _, again = run("import math\nprint(math.pi)\n")


def test_module_facades_hide_host_modules():
    for attr in ["os", "sys", "np", "numpy", "math", "torch", "ctypes", "builtins", "inspect"]:
        _, r = run(f"torch.{attr}\n")
        assert r.errors[0].type_name == "AttributeError"
    out, r = run("torch\nmath\ntype(torch)\n")
    assert out == "<facade module 'torch'>\n<facade module 'math'>\n<class 'module'>\n"


@pytest.mark.parametrize("src", [
    "torch.serialization.save(torch.ones(1), 'f')\n", "torch.ones(1).save('f')\n", "torch.jit\n",
    "torch.utils.checkpoint\n",
])
def test_refused_torch_names_say_so(src):
    _, r = run(src)
    assert not r.ok
    assert "not available" in r.errors[0].message or "has no attribute" in r.errors[0].message


@pytest.mark.parametrize("src", [
    "torch.ones(4).as_strided((3,), (2,))\n", "torch.ones(4)[2:].as_strided((2,), (1,), 3)\n",
    "torch.ones(4).as_strided((2,), (1,), -1)\n", "torch.ones(4).as_strided((2,), (-1,), 3)\n",
    "torch.ones(4).t().as_strided((100,), (1,))\n",
])
def test_as_strided_never_reaches_past_the_storage(src):
    _, r = run(src)
    assert not r.ok
    assert r.errors[0].type_name == "RuntimeError"


def test_torch_save_keeps_files_in_memory_and_writes_none(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out, r = run("torch.save({'w': torch.ones(2)}, 'f.pth')\ntorch.load('f.pth')\n"
                 "torch.save(print, '/tmp/gradrepl-pwned')\ntorch.load('missing.pth')\n")
    assert out == "{'w': tensor([1., 1.])}\n"
    assert r.errors[0].headline == "FileNotFoundError: [Errno 2] No such file or directory: 'missing.pth'"
    assert list(tmp_path.iterdir()) == []
    assert not pathlib.Path("/tmp/gradrepl-pwned").exists()
    _, r = run("torch.load('f.pth')\n")        # another session has other files
    assert r.errors[0].type_name == "FileNotFoundError"


def test_no_host_objects_by_attributes():
    src = ("x = torch.tensor([1.0], requires_grad=True)\nprint(type(x), type(x.grad_fn), type(print), "
           "type(len), type(lambda: 0), type(int), type(ValueError))\n")
    out, r = run(src)
    assert r.ok, r.errors
    assert out == ("<class 'torch.Tensor'> <class 'NoneType'> <class 'builtin_function_or_method'> "
                   "<class 'builtin_function_or_method'> <class 'function'> <class 'builtins.type'> "
                   "<class 'builtins.type'>\n")


@pytest.mark.parametrize("src", [
    "print.fn\n", "len.label\n", "f = lambda: 0\nf.body\n", "int.host\n", "'a'.upper.fn\n",
    "{}.keys().mapping\n", "type(1).name\n", "zip([1]).x\n", "range(3).__iter__\n",
    "ValueError('x').with_traceback\n", "torch.no_grad().x\n", "torch.ones(1).shape.x\n",
])
def test_unknown_attributes_do_not_exist(src):
    _, r = run(src)
    assert r.errors[0].type_name == "AttributeError"


def test_caught_exceptions_carry_only_type_and_message():
    src = ("try:\n    torch.ones(2, requires_grad=True).backward()\nexcept RuntimeError as e:\n    print(type(e), e.args)\n"
           "    err = e\ntry:\n    err.with_traceback\nexcept AttributeError as e2:\n    print(e2)\n")
    out, r = run(src)
    assert r.ok, r.errors
    assert out == ("<class 'RuntimeError'> ('grad can be implicitly created only for scalar outputs',)\n"
                   "'RuntimeError' object has no attribute 'with_traceback'\n")


@pytest.mark.parametrize("src", [
    "raise SystemExit(7)\n", "raise KeyboardInterrupt\n", "raise BaseException('x')\n",
    "raise GeneratorExit\n", "raise print\n", "raise 5\n",
])
def test_only_exception_subclasses_can_be_raised(src):
    out, r = run(src + "print('alive')\n", keep_going=True)
    assert out == "alive\n"
    assert r.errors[0].type_name in ("NameError", "TypeError")


def test_generators_are_lazy_and_opaque():
    out, r = run("g = (i * 2 for i in [1, 2, 3])\nprint(list(g), list(g))\ng.gi_frame\n")
    assert out == "[2, 4, 6] []\n"
    assert headline(r) == "AttributeError: 'generator' object has no attribute 'gi_frame'"


def test_callbacks_only_receive_sandbox_callables():
    out, r = run("print(sorted([3, 1], key=lambda v: -v), max(['ab', 'c'], key=len))\n"
                 "x = torch.tensor([1.0])\nx.apply_(print)\n")
    # apply_ calls the sandbox's own print once per element (as PyTorch does), then refuses its None
    assert out == "[3, 1] ab\n1.0\n"
    assert headline(r) == "TypeError: must be real number, not NoneType"


def test_numpy_never_returns_a_host_array():
    out, r = run("x = torch.tensor([1.0, 2.0])\na = x.numpy()\nprint(type(a), a)\na.base\n")
    assert out == "<class 'gradrepl.ndarray'> [1. 2.]\n"   # a stand-in (tests/lang/test_numpy_standin.py)
    assert headline(r).endswith("ndarray' object has no attribute 'base'")
    out, r = run("x = torch.tensor([1.0, 2.0])\na = x.numpy()\nprint(a, repr(a), type(a[0]), a.shape)\n"
                 "_ = x.add_(1)\nprint(a.tolist(), [v for v in a])\n")
    assert r.ok
    assert out == ("[1. 2.] array([1., 2.], dtype=float32) <class 'gradrepl.float32'> (2,)\n"
                   "[2.0, 3.0] [np.float32(2.0), np.float32(3.0)]\n")
    for attr in ("ctypes", "data", "base", "tofile", "view", "__array_interface__"):
        _, r = run(f"a = torch.ones(2).numpy()\na.{attr}\n")
        assert not r.ok and "Error" in headline(r), attr
    out, r = run("x = torch.ones(2)\na = x.numpy()\na[0] = 5\nprint(x)\n")
    assert r.ok and out == "tensor([5., 1.])\n"      # written through, as NumPy's view of the tensor


def test_with_only_accepts_grad_mode_objects():
    _, r = run("with [1]:\n    pass\n")
    assert headline(r) == "TypeError: 'list' object does not support the context manager protocol"


def test_decorated_functions_stay_opaque():
    src = ("@torch.no_grad()\ndef j(v):\n    return v * 2\nx = torch.ones(1, requires_grad=True)\n"
           "print(j(x).requires_grad)\nj.__wrapped__\n")
    out, r = run(src)
    assert out == "False\n" and r.errors[0].type_name == "AttributeError"


def test_decorators_are_user_functions_or_grad_modes():
    out, r = run("@print\ndef h():\n    pass\ndef deco(f):\n    return f\n@deco\ndef k():\n    return 1\n"
                 "print(k())\n", keep_going=True)
    assert out == "1\n"
    assert r.errors[0].message == ("'builtin_function_or_method' cannot be used as a decorator in "
                                   "gradrepl (use a function you defined or torch.no_grad())")


def test_c_level_methods_of_engine_objects_are_wrapped():
    out, r = run("s = torch.ones(2, 3).shape\nprint(s.count, s.count(2), s.index(3))\n")
    assert out == "<function Size.count> 1 1\n"


@pytest.mark.parametrize("src", ["torch.chalf\n", "torch.ones(2, dtype=torch.complex32)\n"])
def test_complex32_says_it_is_not_supported(src):
    _, r = run(src)
    assert not r.ok
    assert "complex32 (chalf) tensors are not supported in gradrepl" in r.errors[0].message


def test_complex64_and_complex128_work():
    out, r = run("print(torch.polar(torch.ones(1), torch.zeros(1)), torch.ones(1, dtype=torch.cdouble))\n")
    assert r.ok and out == "tensor([1.+0.j]) tensor([1.+0.j], dtype=torch.complex128)\n"
