"""Tensor printing, a port of PyTorch 2.13's ``torch/_tensor_str.py`` over NumPy arrays.

One formatter per tensor decides integer mode, scientific mode and the column
width from the non-zero finite values (as float64, like PyTorch); the layout
functions then place the formatted elements exactly as ``repr(torch_tensor)``.
Only the elements that are shown get formatted: a summarised tensor costs a
few vectorised NumPy passes plus the ``...`` edges.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from gradrepl.errors import BudgetExceeded
from gradrepl.limits import LIMITS


class _PrinterOptions:
    def __init__(self, precision: int = 4, threshold: float = 1000, edgeitems: int = 3,
                 linewidth: int = 80, sci_mode: bool | None = None):
        self.precision = precision
        self.threshold = threshold
        self.edgeitems = edgeitems
        self.linewidth = linewidth
        self.sci_mode = sci_mode

    def as_dict(self) -> dict:
        return {"precision": self.precision, "threshold": self.threshold,
                "edgeitems": self.edgeitems, "linewidth": self.linewidth,
                "sci_mode": self.sci_mode}


PRINT_OPTS = _PrinterOptions()

_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
) -> None:
    """``torch.set_printoptions``: an unknown profile is ignored and ``sci_mode`` is always set."""
    if profile in _PROFILES:
        for name, value in _PROFILES[profile].items():
            setattr(PRINT_OPTS, name, value)
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """``torch.get_printoptions``: keyword arguments for :func:`set_printoptions`."""
    return PRINT_OPTS.as_dict()


_DTYPE_NAMES = {
    np.dtype(np.float64): "torch.float64",
    np.dtype(np.float32): "torch.float32",
    np.dtype(np.float16): "torch.float16",
    np.dtype(np.int64): "torch.int64",
    np.dtype(np.int32): "torch.int32",
    np.dtype(np.int16): "torch.int16",
    np.dtype(np.int8): "torch.int8",
    np.dtype(np.uint64): "torch.uint64",
    np.dtype(np.uint32): "torch.uint32",
    np.dtype(np.uint16): "torch.uint16",
    np.dtype(np.uint8): "torch.uint8",
    np.dtype(np.bool_): "torch.bool",
    np.dtype(np.complex64): "torch.complex64",
    np.dtype(np.complex128): "torch.complex128",
}

# Dtypes PyTorch leaves out of the repr of a non-empty tensor.
# [0]: the default float, [3]: the default complex dtype (complex128 when float64 is the default)
_IMPLIED_DTYPES = [np.dtype(np.float32), np.dtype(np.int64), np.dtype(np.bool_), np.dtype(np.complex64)]


def set_default_float(np_dtype):
    """torch.set_default_dtype: tensors of the new default print without their dtype."""
    _IMPLIED_DTYPES[0] = np.dtype(np_dtype)
    _IMPLIED_DTYPES[3] = np.dtype(np.complex128 if _IMPLIED_DTYPES[0] == np.float64 else np.complex64)


def dtype_repr(np_dtype) -> str:
    """The PyTorch name of a NumPy dtype, e.g. ``'torch.float32'``."""
    dtype = np.dtype(np_dtype)
    try:
        return _DTYPE_NAMES[dtype]
    except KeyError:
        if dtype.name == "bfloat16":      # ml_dtypes': loaded only once bfloat16 is used
            return "torch.bfloat16"
        raise ValueError(f"no PyTorch dtype for NumPy dtype {dtype}") from None


def size_repr(shape: tuple) -> str:
    """``repr(torch.Size(shape))``, e.g. ``'torch.Size([2, 3])'``."""
    return "torch.Size([" + ", ".join(str(int(d)) for d in shape) + "])"


def return_types_repr(name: str, fields: list[tuple[str, str]]) -> str:
    """The repr of a ``torch.return_types.<name>`` tuple from its fields' reprs."""
    body = ",\n".join(f"{field}={text}" for field, text in fields)
    return f"torch.return_types.{name}(\n{body})"


class _Formatter:
    """Formats single elements of one tensor at a common width (``_tensor_str._Formatter``)."""

    __slots__ = ("max_width", "format")

    def __init__(self, arr: np.ndarray):
        flat = arr.reshape(-1)
        self.max_width = 1
        if flat.dtype.kind == "b":
            if flat.size:
                self.max_width = 4 if flat.all() else 5
            width = self.max_width
            self.format = {True: "True".rjust(width), False: "False".rjust(width)}.__getitem__
            return
        if flat.dtype.kind in "iu":
            if flat.size:
                self.max_width = max(len(str(flat.min())), len(str(flat.max())))
            self.format = f"{{:>{self.max_width}d}}".format
            return

        precision = PRINT_OPTS.precision
        int_mode, sci_mode = True, False
        values = flat[np.isfinite(flat) & (flat != 0)]
        if values.size:
            int_mode = bool(np.all(values == np.ceil(values)))
            magnitudes = np.abs(values).astype(np.float64)
            smallest, largest = float(magnitudes.min()), float(magnitudes.max())
            if PRINT_OPTS.sci_mode is None:
                sci_mode = bool(largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4)
            else:
                sci_mode = PRINT_OPTS.sci_mode
            if sci_mode:
                element_spec = f"{{:.{precision}e}}"
            elif int_mode:
                element_spec = "{:.0f}."
            else:
                element_spec = f"{{:.{precision}f}}"
            # Within one sign, the formatted length only grows with the distance
            # of |value| from 1 (digits before the point, exponent digits), so the
            # extremes of each sign decide the width PyTorch finds element by element.
            extremes = []
            for same_sign in (values[values > 0], values[values < 0]):
                if same_sign.size:
                    extremes += [same_sign.min(), same_sign.max()]
            self.max_width = max(len(element_spec.format(float(v))) for v in extremes)

        width = self.max_width
        if sci_mode:
            self.format = f"{{:{width}.{precision}e}}".format
        elif int_mode:
            self.format = self._int_mode_format
        else:
            self.format = f"{{:>{width}.{precision}f}}".format

    def _int_mode_format(self, value: float) -> str:
        text = f"{value:.0f}"
        if math.isfinite(value):
            text += "."
        return text.rjust(self.max_width)


def _summarized_data(arr: np.ndarray) -> np.ndarray:
    """The elements a summarised print shows (``get_summarized_data``)."""
    edge = PRINT_OPTS.edgeitems
    # With edgeitems=0 nothing is selected: only "..." is shown.  (PyTorch keeps a
    # whole 1-D tensor there, self[-0:], but never formats one of its elements.)
    index = [
        np.r_[0:edge, n - edge : n] if n > 2 * edge else np.arange(n) for n in arr.shape
    ]
    return arr[np.ix_(*index)]


class _ComplexFormatter:
    """A complex tensor's elements: its real parts and its imaginary parts each formatted by their own
    _Formatter, joined with the imaginary part's sign (``_tensor_str``'s ``_val_formatter``)."""

    __slots__ = ("real", "imag", "max_width")

    def __init__(self, arr: np.ndarray):
        self.real = _Formatter(arr.real)
        self.imag = _Formatter(arr.imag)
        self.max_width = self.real.max_width + self.imag.max_width + 1   # the `j`

    def format(self, value: complex) -> str:
        real = self.real.format(value.real)
        imag = (self.imag.format(value.imag) + "j").lstrip()
        if imag[0] in "+-":
            return real + imag
        return real + "+" + imag


def _vector_str(arr: np.ndarray, indent: int, summarize: bool, formatter: _Formatter) -> str:
    edge = PRINT_OPTS.edgeitems
    element_length = formatter.max_width + 2
    elements_per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    fmt = formatter.format
    if summarize and not edge:
        data = ["..."]
    elif summarize and arr.shape[0] > 2 * edge:
        data = (
            list(map(fmt, arr[:edge].tolist()))
            + [" ..."]
            + list(map(fmt, arr[-edge:].tolist()))
        )
    else:
        data = list(map(fmt, arr.tolist()))
    lines = [
        ", ".join(data[i : i + elements_per_line]) for i in range(0, len(data), elements_per_line)
    ]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(
    arr: np.ndarray, indent: int, summarize: bool, formatter: _Formatter
) -> str:
    dim = arr.ndim
    if dim == 0:
        return formatter.format(arr.item())
    if dim == 1:
        return _vector_str(arr, indent, summarize, formatter)
    edge = PRINT_OPTS.edgeitems
    rows = arr.shape[0]
    if summarize and rows > 2 * edge:
        slices = (
            [_tensor_str_with_formatter(arr[i], indent + 1, summarize, formatter) for i in range(edge)]
            + ["..."]
            + [
                _tensor_str_with_formatter(arr[i], indent + 1, summarize, formatter)
                for i in range(rows - edge, rows)
            ]
        )
    else:
        slices = [
            _tensor_str_with_formatter(arr[i], indent + 1, summarize, formatter) for i in range(rows)
        ]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _tensor_str(arr: np.ndarray, indent: int) -> str:
    summarize = arr.size > PRINT_OPTS.threshold
    if arr.dtype.kind == "c":
        formatter = _ComplexFormatter(_summarized_data(arr) if summarize else arr)
        return _tensor_str_with_formatter(arr, indent, summarize, formatter)
    formatter = _Formatter(_summarized_data(arr) if summarize else arr)
    return _tensor_str_with_formatter(arr, indent, summarize, formatter)


def _add_suffixes(tensor_str: str, suffixes: list[str], indent: int) -> str:
    parts = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def _check_printable(arr):
    """Refuse, before building it, a text that would pass the output budget (a huge tensor
    printed in full after set_printoptions(threshold=...) or with huge edgeitems)."""
    shown = arr.size
    if arr.size > PRINT_OPTS.threshold:
        shown = 1
        for n in arr.shape:
            shown *= min(n, 2 * PRINT_OPTS.edgeitems)
    if shown * (PRINT_OPTS.precision + 4) > LIMITS.max_output:
        raise BudgetExceeded("output", f"output limit exceeded: printing this tensor would write more than "
                             f"{LIMITS.max_output} characters (raise it with --max-output)", "--max-output")


def tensor_repr(
    arr: np.ndarray, *, requires_grad: bool = False, grad_fn_name: str | None = None, tangent: str | None = None
) -> str:
    """``repr(tensor)`` of a CPU tensor holding ``arr`` (its dtype is the tensor's dtype)."""
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []
    if arr.size == 0:
        # Like NumPy, the shape is shown unless it is (0,); the dtype cannot be inferred.
        if arr.ndim != 1:
            suffixes.append(f"size={tuple(arr.shape)}")
        if arr.dtype != _IMPLIED_DTYPES[0]:
            suffixes.append("dtype=" + dtype_repr(arr.dtype))
        tensor_str = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(arr.shape)}")
        if arr.dtype not in _IMPLIED_DTYPES:
            suffixes.append("dtype=" + dtype_repr(arr.dtype))
        _check_printable(arr)
        tensor_str = _tensor_str(arr, indent)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + tensor_str, suffixes, indent)
