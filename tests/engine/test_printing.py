"""Tensor printing against texts recorded from PyTorch 2.13 (tests/data/printing/)."""

import base64
import json
import math
from pathlib import Path

import hypothesis.extra.numpy as hnp
import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given, settings

from gradrepl.engine.printing import (
    PRINT_OPTS,
    _Formatter,
    dtype_repr,
    get_printoptions,
    return_types_repr,
    set_printoptions,
    size_repr,
    tensor_repr,
)

GOLDEN = json.loads((Path(__file__).parent.parent / "data" / "printing" / "golden.json").read_text())


def decode(case: dict) -> np.ndarray:
    """Rebuild a recorded tensor's values exactly (see scripts/record_printing_golden.py)."""
    dtype = np.dtype(case["dtype"])
    if "data_b64" in case:
        flat = np.frombuffer(base64.b64decode(case["data_b64"]), dtype=dtype.newbyteorder("<"))
    elif dtype.kind == "f":
        flat = np.array([float(v) for v in case["data"]], dtype=np.float64)
    else:
        flat = np.array(case["data"], dtype=dtype)
    return flat.astype(dtype).reshape(case["shape"])


def repr_of(case: dict) -> str:
    return tensor_repr(decode(case), requires_grad=case["requires_grad"], grad_fn_name=case["grad_fn"])


@pytest.fixture(autouse=True)
def default_printoptions():
    yield
    set_printoptions(profile="default")


@pytest.mark.parametrize(
    "case", GOLDEN["tensor_cases"], ids=[f"{i}-{c['note']}" for i, c in enumerate(GOLDEN["tensor_cases"])]
)
def test_tensor_repr_matches_pytorch(case):
    set_printoptions(**case.get("options", {}))
    assert repr_of(case) == case["repr"]


def test_golden_covers_every_dtype_and_rank():
    cases = GOLDEN["tensor_cases"]
    assert {c["dtype"] for c in cases} >= {"float32", "float64", "float16", "int64", "int32",
                                           "int16", "int8", "uint8", "bool"}
    assert {len(c["shape"]) for c in cases} == {0, 1, 2, 3, 4}


@pytest.mark.parametrize("case", GOLDEN["size_cases"], ids=lambda c: str(c["shape"]))
def test_size_repr(case):
    assert size_repr(tuple(case["shape"])) == case["repr"]


@pytest.mark.parametrize("case", GOLDEN["return_types_cases"], ids=lambda c: c["name"])
def test_return_types_repr(case):
    fields = [(name, repr_of(value)) for name, value in case["fields"]]
    assert return_types_repr(case["name"], fields) == case["repr"]


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


def test_dtype_repr():
    assert dtype_repr(np.float32) == "torch.float32"
    assert dtype_repr(np.dtype("uint8")) == "torch.uint8"
    assert dtype_repr(np.complex64) == "torch.complex64"
    with pytest.raises(ValueError):
        dtype_repr(np.dtype("complex256"))


def test_set_printoptions_profiles_and_reset():
    set_printoptions(precision=2, sci_mode=True)
    assert (PRINT_OPTS.precision, PRINT_OPTS.sci_mode) == (2, True)
    set_printoptions(profile="short")
    assert get_printoptions() == {"precision": 2, "threshold": 1000, "edgeitems": 2,
                                  "linewidth": 80, "sci_mode": None}
    set_printoptions(profile="full", edgeitems=5)
    assert (PRINT_OPTS.threshold, PRINT_OPTS.edgeitems) == (float("inf"), 5)
    set_printoptions(profile="default")
    assert get_printoptions() == {"precision": 4, "threshold": 1000, "edgeitems": 3,
                                  "linewidth": 80, "sci_mode": None}


def torch_formatter_width(arr: np.ndarray, precision: int) -> int:
    """The column width as torch's ``_Formatter.__init__`` finds it, element by element."""
    values = [float(v) for v in arr.reshape(-1) if np.isfinite(v) and v != 0]
    if not values:
        return 1
    magnitudes = [abs(v) for v in values]
    smallest, largest = min(magnitudes), max(magnitudes)
    sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4
    int_mode = all(v == math.ceil(v) for v in values)
    if sci_mode:
        return max(len(f"{v:.{precision}e}") for v in values)
    if int_mode:
        return max(len(f"{v:.0f}") + 1 for v in values)
    return max(len(f"{v:.{precision}f}") for v in values)


@settings(max_examples=300, deadline=None)
@given(
    arr=hnp.arrays(
        dtype=st.sampled_from([np.float16, np.float32, np.float64]),
        shape=hnp.array_shapes(min_dims=1, max_dims=2, max_side=12),
        elements={"allow_subnormal": True},
    ),
    precision=st.integers(0, 10),
)
def test_column_width_from_extremes_equals_torch_scan(arr, precision):
    set_printoptions(precision=precision)
    assert _Formatter(arr).max_width == torch_formatter_width(arr, precision)
