"""Tensor.numpy() and `import numpy as np` give stand-ins that print and compute as NumPy's
arrays, scalars and dtypes and share memory as PyTorch's bridge does, and hand no NumPy
object to user code (DECISIONS: never a raw ndarray). Their types print as NumPy's
(`<class 'gradrepl.ndarray'>`). What real NumPy prints is checked in the golden cases
(tests/data/engine_cases/numpy_*.py); the sandbox side in tests/security/."""
import pytest

from gradrepl.lang import Session, run_source


def run(src):
    out = []
    session = Session(write=out.append)
    result = run_source("import torch\nimport numpy as np\n" + src, session)
    return "".join(out), result


@pytest.mark.parametrize("src, message", [
    ("torch.ones(2).numpy()._source\n", "names starting with '_' are refused"),
    ("torch.ones(2).numpy().view\n", "has no attribute 'view'"),
    ("torch.ones(2).numpy().ctypes\n", "AttributeError"),
    ("torch.from_numpy([1, 2])\n", "expected np.ndarray (got list)"),
    ("np.array([print])\n", "gradrepl's numpy takes numbers, lists of numbers, arrays and tensors, not "
                            "builtin_function_or_method"),
    ("np.array(['a', 'b'])\n", "not str"),
    ("np.array([1, 2], dtype='object')\n", "dtype=object is not offered by gradrepl's numpy"),
    ("np.zeros(3, dtype='O')\n", "dtype=object is not offered by gradrepl's numpy"),
    ("np.zeros(3, dtype='U')\n", "data type 'U' not understood"),
    ("np.zeros(3, dtype=torch.float32)\n", "Cannot interpret 'torch.float32' as a data type"),
    ("np.array([2 ** 70])\n", "gradrepl's numpy holds numbers only"),
    ("np.load\n", "numpy.load is not offered by gradrepl"),
    ("np.frombuffer\n", "numpy.frombuffer is not offered by gradrepl"),
    ("np.lib\n", "numpy.lib is not offered by gradrepl"),
    ("np.random.mtrand\n", "module 'numpy.random' has no attribute 'mtrand'"),
    ("np.random.shuffle((1, 2))\n", "not tuple"),
    ("np.zeros((10 ** 5, 10 ** 5))\n", "BudgetExceeded"),
    ("np.ones(10 ** 9)\n", "BudgetExceeded"),
    ("np.random.rand(10 ** 5, 10 ** 5)\n", "BudgetExceeded"),
    ("np.arange(10 ** 12)\n", "BudgetExceeded"),
    ("np.linspace(0, 1, 10 ** 9)\n", "BudgetExceeded"),
    ("a = np.zeros(10 ** 7)\na.reshape(-1, 1) + a\n", "BudgetExceeded"),
    ("a = np.zeros(10 ** 4)\nnp.outer(a, a)\n", "BudgetExceeded"),
    ("a = [0] * 10 ** 7\nnp.array([a, a, a, a, a, a])\n", "BudgetExceeded"),
])
def test_the_standins_expose_nothing_else(src, message):
    _, result = run(src)
    assert not result.ok and message in result.errors[0].format()


def test_values_are_shared_with_the_tensor_as_numpy_shares_them():
    out, result = run("t = torch.zeros(2, 2)\na = t.numpy()\nrow = a[0]\npicked = a[:, 1:]\n_ = t.add_(1)\n"
                      "print(a)\nprint(row, picked)\n"
                      "print(type(row), a[1, 1], type(a[1, 1]))\n")
    assert result.ok
    # rows and slices are views, as in NumPy
    assert out == ("[[1. 1.]\n [1. 1.]]\n[1. 1.] [[1.]\n [1.]]\n<class 'gradrepl.ndarray'> 1.0 "
                   "<class 'gradrepl.float32'>\n")


def test_from_numpy_shares_and_tensor_copies():
    out, result = run("n = np.ones(3)\nshared = torch.from_numpy(n)\nalso = torch.as_tensor(n)\n"
                      "copied = torch.tensor(n)\nn += 1\nn[0] = 7\n_ = np.multiply(n, 2, out=n)\n"
                      "print(shared, also, copied, sep='\\n')\n")
    assert result.ok, [e.format() for e in result.errors]
    assert out == ("tensor([14.,  4.,  4.], dtype=torch.float64)\ntensor([14.,  4.,  4.], dtype=torch.float64)\n"
                   "tensor([1., 1., 1.], dtype=torch.float64)\n")


def test_the_random_state_is_numpys_legacy_global_one_per_session():
    import numpy
    state = numpy.random.RandomState(3)
    want = [state.rand(2).tolist(), state.randn(), state.randint(0, 9, size=3).tolist()]
    out, result = run("np.random.seed(3)\nprint(np.random.rand(2).tolist(), np.random.randn(), "
                      "np.random.randint(0, 9, size=3).tolist())\n")
    assert result.ok and out == f"{want[0]} {want[1]} {want[2]}\n"


def test_numpy_scalars_compute_as_numpys():
    out, result = run("s = np.array([1.5, 2.5]).sum()\nprint(repr(s * 2), repr(2 * s), repr(-s), repr(s / 4))\n"
                      "f = np.float32(1) / 3\nprint(repr(f), f'{f:.3f}', type(f))\n"
                      "print(repr(np.allclose([1.0], [1.0 + 1e-9])), repr(np.isclose(1.0, 1.0)), "
                      "repr(np.array([1, 2]).argmax()))\n")
    assert result.ok, [e.format() for e in result.errors]
    assert out == ("np.float64(8.0) np.float64(8.0) np.float64(-4.0) np.float64(1.0)\n"
                   "np.float32(0.33333334) 0.333 <class 'gradrepl.float32'>\nTrue np.True_ np.int64(1)\n")


def test_numpy_errors_go_by_numpys_names():
    _, result = run("np.ones((2, 3)).sum(axis=2)\n")
    assert result.errors[0].headline == ("numpy.exceptions.AxisError: axis 2 is out of bounds for array of "
                                         "dimension 2")


def test_np_ndarray_is_the_type_of_arrays():
    out, result = run("a = np.zeros(2)\nprint(isinstance(a, np.ndarray), type(a) is np.ndarray, "
                      "isinstance(torch.ones(1), np.ndarray), np.ndarray)\n")
    assert result.ok and out == "True True False <class 'gradrepl.ndarray'>\n"
