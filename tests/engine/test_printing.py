"""Tensor printing against texts recorded from PyTorch 2.13 (tests/data/printing/)."""

import numpy as np

from gradrepl.engine.printing import tensor_repr


def test_conformance_printing_case():
    # Source: conformance case p03_printing.out (see tests/data/printing/README.md).
    assert tensor_repr(np.array([2.0, 3.5], np.float32)) == "tensor([2.0000, 3.5000])"
    assert tensor_repr(np.array([0.00001, 100.0], np.float32)) == "tensor([1.0000e-05, 1.0000e+02])"
    assert tensor_repr(np.ones(3)) == "tensor([1., 1., 1.], dtype=torch.float64)"
    assert tensor_repr(np.array([[True, False], [False, True]])) == (
        "tensor([[ True, False],\n        [False,  True]])"
    )
    assert tensor_repr(np.array(-0.5, np.float32), requires_grad=True) == (
        "tensor(-0.5000, requires_grad=True)"
    )
    assert tensor_repr(np.arange(4)) == "tensor([0, 1, 2, 3])"
