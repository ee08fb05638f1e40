"""Tensor.numpy() gives a stand-in that prints as NumPy's ndarray and shares the tensor's
values, and hands no NumPy object to user code (DECISIONS: never a raw ndarray). Its type
says it is gradrepl's (`<class 'gradrepl.ndarray'>`): no NumPy class is named to user code."""
import pytest

from gradrepl.lang import Session, run_source


def run(src):
    out = []
    session = Session(write=out.append)
    result = run_source("import torch\n" + src, session)
    return "".join(out), result


@pytest.mark.parametrize("src, message", [
    ("torch.ones(2).numpy()._source\n", "names starting with '_' are refused"),
    ("torch.ones(2).numpy().view\n", "has no attribute 'view'"),
    ("torch.ones(2).numpy().astype\n", "has no attribute 'astype'"),
    ("torch.from_numpy([1, 2])\n", "expected np.ndarray (got list)"),
    ("torch.ones(2).numpy()[[0, 1]]\n", "take integers and slices in gradrepl"),
])
def test_the_standin_exposes_nothing_else(src, message):
    _, result = run(src)
    assert not result.ok and message in result.errors[0].format()


def test_values_are_shared_with_the_tensor_as_numpy_shares_them():
    out, result = run("t = torch.zeros(2, 2)\na = t.numpy()\nrow = a[0]\npicked = a[:, 1:]\n_ = t.add_(1)\n"
                      "print(a)\nprint(row, picked)\n"
                      "print(type(row), a[1, 1], type(a[1, 1]))\n")
    assert result.ok
    # rows and slices are views, as in NumPy
    assert out == "[[1. 1.]\n [1. 1.]]\n[1. 1.] [[1.]\n [1.]]\n<class 'gradrepl.ndarray'> 1.0 <class 'float'>\n"
