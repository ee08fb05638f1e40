"""Record tensor reprs from real PyTorch into tests/data/printing/golden.json.

Run with the PyTorch oracle venv (never imported by gradrepl or its tests):

    /work/torchvenv/bin/python scripts/record_printing_golden.py

Each case stores the exact element values (float64 ``repr`` strings for floats,
which round-trip exactly; base64 of the raw little-endian bytes for large
tensors), the dtype, shape, print options and grad suffix, and the text
``repr(tensor)`` gave.  The random part is seeded, so reruns are identical.
"""

from __future__ import annotations

import base64
import json
import math
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "printing" / "golden.json"
INLINE_LIMIT = 48  # larger tensors are stored as base64 bytes to keep the file small

F16, F32, F64 = np.float16, np.float32, np.float64
INT_DTYPES = [np.int64, np.int32, np.int16, np.int8, np.uint8]


def encode(arr: np.ndarray) -> dict:
    entry = {"dtype": arr.dtype.name, "shape": list(arr.shape)}
    flat = arr.reshape(-1)
    if flat.size > INLINE_LIMIT:
        entry["data_b64"] = base64.b64encode(flat.astype(arr.dtype.newbyteorder("<")).tobytes()).decode()
    elif arr.dtype.kind == "f":
        entry["data"] = [repr(float(v)) for v in flat]
    else:
        entry["data"] = flat.tolist()
    return entry


def to_torch(arr: np.ndarray, grad: str | None) -> torch.Tensor:
    """A tensor holding arr; grad: None, 'leaf' (requires_grad) or an exact op giving a grad_fn."""
    t = torch.from_numpy(arr.copy())
    if grad is None:
        return t
    t.requires_grad_(True)
    if grad == "leaf":
        return t
    if grad == "clone":
        return t.clone()
    if grad == "mul1":
        return t * 1
    if grad == "view":
        return t.view(arr.shape)
    raise ValueError(grad)


def record(arr: np.ndarray, *, grad: str | None = None, options: dict | None = None, note: str = "") -> dict:
    t = to_torch(arr, grad)
    with torch._tensor_str.printoptions(**(options or {})):
        text = repr(t)
    case = {"note": note, **encode(arr)}
    if options:
        case["options"] = options
    case["requires_grad"] = t.requires_grad
    case["grad_fn"] = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    case["repr"] = text
    # The stored values must rebuild the very same array.
    assert np.array_equal(decode_check(case), arr, equal_nan=arr.dtype.kind == "f")
    return case


def decode_check(case: dict) -> np.ndarray:
    dtype = np.dtype(case["dtype"])
    if "data_b64" in case:
        flat = np.frombuffer(base64.b64decode(case["data_b64"]), dtype=dtype.newbyteorder("<"))
    elif dtype.kind == "f":
        flat = np.array([float(v) for v in case["data"]], dtype=np.float64).astype(dtype)
    else:
        flat = np.array(case["data"], dtype=dtype)
    return flat.astype(dtype).reshape(case["shape"])


def a(values, dtype=F32) -> np.ndarray:
    return np.array(values, dtype=np.float64 if np.dtype(dtype).kind == "f" else None).astype(dtype)


def hand_picked() -> list[dict]:
    nan, inf = math.nan, math.inf
    cases = []
    add = lambda arr, **kw: cases.append(record(arr, **kw))  # noqa: E731

    # Scalars (0-d).
    for v in [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.1, 2.5, 3.14159, 1e-5, 1e-4, 0.00015, 1e8, 1e9,
              123456789.0, 99999.5, 1e20, 1e-30, nan, inf, -inf, 0.99995, 9.99995, -7.0]:
        add(a(v), note="0-d float32")
    for v in [0.1, 1e-300, 1e300, -2.0, 1 / 3]:
        add(a(v, F64), note="0-d float64")
    for v in [0.1, 65504.0, 6e-8, -3.0]:
        add(a(v, F16), note="0-d float16")
    for v, dt in [(0, np.int64), (-5, np.int64), (2**62, np.int64), (-(2**63), np.int64),
                  (7, np.int32), (-128, np.int8), (255, np.uint8), (-300, np.int16)]:
        add(np.array(v, dtype=dt), note="0-d int")
    add(np.array(True), note="0-d bool")
    add(np.array(False), note="0-d bool")
    add(a(-0.5), grad="leaf", note="0-d requires_grad")
    add(a(3.0), grad="mul1", note="0-d grad_fn")

    # 1-D floats: the format decision.
    one_d = [
        ([0.1, 0.2, 0.3], "float32 rounding"),
        ([2.0, 3.5], "fixed"),
        ([0.00001, 100.0], "sci, min < 1e-4"),
        ([1e-4, 1.0], "float32(1e-4) is below 1e-4"),
        ([1.0, 1000.0], "ratio exactly 1000"),
        ([1.0, 1001.0], "ratio above 1000"),
        ([1.5, 1000.5], "ratio below 1000, fixed"),
        ([1e8, 2e8], "max above 1e8"),
        ([1e8], "max exactly 1e8"),
        ([100000000.0, 1.0], "1e8 and 1"),
        ([1.0, -2.0, 3.0], "integer mode"),
        ([-0.0, 0.0], "zeros"),
        ([0.0, -0.0, 1.0], "negative zero in integer mode"),
        ([-0.0, 0.5], "negative zero fixed"),
        ([-0.0, 1e-6], "negative zero sci"),
        ([nan, 1.0], "nan integer mode"),
        ([nan, 1.5], "nan fixed"),
        ([nan, 1e-6, 1.0], "nan sci"),
        ([inf, -inf], "only infinities"),
        ([inf, -inf, 2.0], "inf integer mode"),
        ([nan, nan], "all nan"),
        ([0.0, nan], "zero and nan"),
        ([-1.5, 2.25, nan, inf, -inf, -0.0], "mixed specials"),
        ([9.99996], "rounds up a digit"),
        ([-9.99996, 1.0], "negative rounds up"),
        ([0.99995, 0.5], "0.99995 rounding"),
        ([0.00005, 0.5], "half ulp region"),
        ([12345.678, -0.5], "wide fixed"),
        ([1e10, 1e10 + 1], "big integers sci int mode"),
        ([123456.0, 7.0], "integer mode ratio > 1000 goes sci"),
        ([1e-40, 1.0], "float32 subnormal"),
        ([3.4e38, -3.4e38], "float32 max"),
    ]
    for values, note in one_d:
        add(a(values), note=note)
    add(a([1e-4, 1.0], F64), note="float64 1e-4 is not below 1e-4")
    add(a([1e-4, 0.1], F64), note="ratio exactly 1000 in float64")
    add(a([1e-100, 1.0], F64), note="three-digit exponent")
    add(a([1e200, -1e-200, 5.0], F64), note="three-digit exponents both ways")
    add(a([9.99999e99, 1.0], F64), note="rounds into e+100")
    add(a([0.1, 0.2, 0.3], F64), note="float64 fixed")
    add(a([0.1, 1000.0, 65504.0], F16), note="float16 values")
    add(a([1e-5, 1.0, inf], F16), note="float16 sci")
    add(np.array([-1, 10, -100], dtype=np.int64), note="int widths")
    add(np.array([0, 1, 2, 3], dtype=np.int32), note="int32 suffix")
    add(np.array([-128, 0, 127], dtype=np.int8), note="int8")
    add(np.array([0, 255], dtype=np.uint8), note="uint8")
    add(np.array([-32768, 5], dtype=np.int16), note="int16")
    for dtype in [np.uint16, np.uint32, np.uint64]:
        add(np.array([0, 5, np.iinfo(dtype).max], dtype=dtype), note="wide unsigned")
    add(np.array([True, True]), note="all True")
    add(np.array([True, False, True]), note="bools")

    # 2-D to 4-D layout.
    add(a([[1.0, 2.0], [3.0, 4.0]]), note="2-D int mode")
    add(a([[1.5, -2.0], [3.0, 40.25]]), note="2-D fixed")
    add(np.arange(24, dtype=np.int64).reshape(2, 3, 4), note="3-D ints")
    add(a(np.arange(24).reshape(2, 3, 4) / 7), note="3-D floats")
    add(a(np.arange(48).reshape(2, 2, 3, 4) - 20.5), note="4-D floats")
    add(np.arange(16, dtype=np.int8).reshape(2, 2, 2, 2), note="4-D int8")
    add(np.array([[[True]]]), note="3-D bool single")
    add(a(np.ones((1, 1, 1, 1))), note="4-D single")

    # Long rows wrap at the line width.
    add(a(np.linspace(-1, 1, 30)), note="1-D wraps")
    add(a(np.linspace(-1, 1, 30).reshape(2, 15) * 1000), note="2-D wraps")
    add(a(np.linspace(0, 1, 60).reshape(2, 2, 15)), note="3-D wraps")
    add(np.arange(-30, 30, dtype=np.int64), note="int row wraps")
    add(a(np.arange(40.0)), note="int mode row wraps")
    add(a(np.geomspace(1e-6, 1e6, 20), F64), note="sci row wraps")

    # Empty tensors.
    for shape in [(0,), (0, 3), (2, 0), (0, 0, 2), (1, 0, 1, 1)]:
        for dtype in [F32, np.int64, np.bool_, F64, np.int32, F16]:
            add(np.zeros(shape, dtype=dtype), note="empty")
    add(np.zeros((0,), F32), grad="leaf", note="empty requires_grad")
    add(np.zeros((0, 2), F64), grad="clone", note="empty grad_fn")

    # Summarisation above the threshold.
    rng = np.random.default_rng(1234)
    add(a(np.arange(1000.0) / 8), note="1000 elements, not summarised")
    add(a(np.arange(1001.0)), note="1001 elements")
    add(a(np.arange(1200.0).reshape(6, 200)), note="six rows are all shown")
    add(a(np.arange(1400.0).reshape(7, 200)), note="seven rows are summarised")
    add(np.arange(1001, dtype=np.int64), note="1001 ints")
    add(np.arange(2000, dtype=np.int16) - 1000, note="int16 summarised")
    add(a(rng.standard_normal((40, 50))), note="2-D summarised")
    add(a(rng.standard_normal((11, 10, 10)) * 1e5, F64), note="3-D summarised")
    add(a(rng.standard_normal((7, 5, 5, 6))), note="4-D summarised")
    add(rng.random((50, 30)) > 0.5, note="bool summarised")
    hidden = a(rng.random(2000) + 1.0)
    hidden[1000] = 1e-10
    hidden[1001] = math.nan
    add(hidden, note="hidden small value does not force sci mode")
    add(a(np.arange(2400.0).reshape(2, 1200)), note="few rows, long")
    add(a(np.arange(1200.0).reshape(1200, 1) / 3), note="tall column")
    add(a(rng.standard_normal((3, 400))), grad="clone", note="summarised with grad_fn")

    # Suffix wrapping at 80 columns.
    add(a([0.1234, 0.5678, 0.9012, 0.3456, 0.7890, 0.1111, 0.2222, 0.3333], F64),
        grad="leaf", note="dtype and requires_grad wrap")
    add(a([0.1234, 0.5678, 0.9012, 0.3456, 0.7890, 0.1111, 0.2222], F64),
        grad="leaf", note="suffixes near the edge")
    add(a([0.1234, 0.5678, 0.9012, 0.3456, 0.7890, 0.1111]), grad="leaf", note="fits")
    add(a([0.1234, 0.5678, 0.9012, 0.3456, 0.7890, 0.1111, 0.2222, 0.3333, 0.4444]),
        grad="clone", note="grad_fn wraps")
    for n in range(5, 12):
        add(a(np.linspace(0.5, 0.9, n)), grad="mul1", note="grad_fn near the edge")
        add(a(np.linspace(0.5, 0.9, n), F64), grad="view", note="dtype and grad_fn near the edge")
    add(np.arange(12, dtype=np.int32), note="int32 dtype wraps")
    add(a(np.linspace(-1, 1, 9).reshape(3, 3), F64), grad="clone", note="2-D dtype and grad_fn")

    # Print options.
    x = a([[0.123456789, -12.5], [1000.25, 3.0]], F64)
    add(x, options={"precision": 2}, note="precision 2")
    add(x, options={"precision": 8}, note="precision 8")
    add(x, options={"precision": 0}, note="precision 0")
    add(a(np.arange(10.0)), options={"threshold": 5}, note="threshold 5")
    add(np.arange(10, dtype=np.int64), options={"threshold": 5, "edgeitems": 1}, note="edgeitems 1")
    add(np.arange(10, dtype=np.int64), options={"threshold": 5, "edgeitems": 0}, note="edgeitems 0, 1-D")
    add(a(np.arange(20.0).reshape(4, 5) / 3), options={"threshold": 5, "edgeitems": 0},
        note="edgeitems 0, 2-D")
    add(a([1.0, 2.0]), options={"edgeitems": 0}, note="edgeitems 0, not summarised")
    add(a(np.arange(10.0) / 3), options={"threshold": 5, "edgeitems": 0}, note="edgeitems 0, floats")
    add(a(2.5), options={"threshold": 0}, note="threshold 0, 0-d")
    add(a([0.5, 1e-6]), options={"threshold": 0}, note="threshold 0, 1-D")
    add(a([0.5, 1.0], F64), grad="leaf", options={"linewidth": 40}, note="both suffixes wrap")
    add(a(np.arange(14.0).reshape(2, 7) / 9, F64), grad="clone", options={"linewidth": 50},
        note="2-D, narrow, both suffixes")
    add(a(np.linspace(-1, 1, 20)), options={"linewidth": 40}, note="linewidth 40")
    add(a(np.linspace(-1, 1, 20)), grad="leaf", options={"linewidth": 40}, note="linewidth 40 suffix")
    add(a([0.5, 2.0]), options={"sci_mode": True}, note="sci_mode True")
    add(a([1e-6, 2.0]), options={"sci_mode": False}, note="sci_mode False")
    add(a([1.0, 2.0]), options={"sci_mode": True}, note="sci_mode True int mode")
    add(a([0.0, nan]), options={"sci_mode": True}, note="sci_mode True, nothing finite")
    add(a(np.arange(30.0) / 7), options={"profile": "short"}, note="profile short")
    add(a(np.arange(30.0) / 7), options={"profile": "short", "threshold": 10}, note="short summarised")
    add(a(np.arange(1001.0)), options={"profile": "full"}, note="profile full")
    add(a(np.arange(12.0).reshape(3, 4)), options={"threshold": 5, "edgeitems": 1},
        note="2-D edgeitems 1")
    return cases


def random_array(rng: np.random.Generator) -> np.ndarray:
    kind = rng.choice(["f32", "f32", "f32", "f64", "f16", "int", "bool"])
    ndim = int(rng.integers(0, 5))
    if rng.random() < 0.08:
        # Summarised, at most 2500 elements (3-D and 4-D ones are among the hand-picked cases).
        shape = (int(rng.integers(1001, 2500)),) if ndim < 2 else (int(rng.integers(21, 50)), 50)
    else:
        limit = [1, 40, 14, 5, 4][ndim]
        shape = tuple(int(d) for d in rng.integers(0 if rng.random() < 0.05 else 1, limit + 1, ndim))
    size = int(np.prod(shape))
    if kind == "bool":
        return np.asarray(rng.random(shape) < rng.random())
    if kind == "int":
        dtype = INT_DTYPES[int(rng.integers(0, len(INT_DTYPES)))]
        info = np.iinfo(dtype)
        hi = min(info.max, 10 ** int(rng.integers(1, 19)))
        lo = 0 if info.min == 0 or rng.random() < 0.3 else max(info.min, -hi)
        return np.asarray(rng.integers(lo, hi, shape, dtype=dtype, endpoint=True))
    dtype = {"f32": F32, "f64": F64, "f16": F16}[kind]
    max_exp = {"f32": 37, "f64": 300, "f16": 4}[kind]
    scale = 10.0 ** rng.uniform(-max_exp, max_exp) if rng.random() < 0.4 else 10.0 ** rng.uniform(-3, 3)
    style = rng.choice(["normal", "uniform", "integers", "spread", "positive"])
    if style == "normal":
        values = rng.standard_normal(size) * scale
    elif style == "uniform":
        values = rng.random(size) * scale
    elif style == "integers":
        values = np.round(rng.standard_normal(size) * min(scale, 1e6))
    elif style == "spread":
        values = np.sign(rng.standard_normal(size)) * 10.0 ** rng.uniform(-max_exp / 3, max_exp / 3, size)
    else:
        values = np.abs(rng.standard_normal(size)) * scale + scale / 10
    if size and rng.random() < 0.25:
        specials = np.array([math.nan, math.inf, -math.inf, -0.0, 0.0])
        where = rng.random(size) < 0.15
        values[where] = rng.choice(specials, int(where.sum()))
    with np.errstate(over="ignore"):
        return values.astype(dtype).reshape(shape)


def random_cases(count: int) -> list[dict]:
    rng = np.random.default_rng(20261130)
    cases = []
    for i in range(count):
        arr = random_array(rng)
        grad = None
        if arr.dtype.kind == "f" and rng.random() < 0.35:
            grad = rng.choice(["leaf", "clone", "mul1", "view"])
        options = None
        if rng.random() < 0.15:
            options = {"precision": int(rng.integers(0, 9)), "linewidth": int(rng.integers(10, 121)),
                       "edgeitems": int(rng.integers(0, 5)), "threshold": int(rng.integers(0, 60))}
        cases.append(record(arr, grad=grad and str(grad), options=options, note=f"random {i}"))
    return cases


def size_cases() -> list[dict]:
    shapes = [(), (0,), (3,), (2, 3), (1, 0, 4), (2, 3, 4, 5)]
    return [{"shape": list(s), "repr": repr(torch.zeros(s).size())} for s in shapes]


def return_types_cases() -> list[dict]:
    cases = []
    x = np.array([[1.0, 5.0, -2.0], [3.0, 2.0, 3.0]], dtype=F32)
    t = torch.from_numpy(x.copy())
    results = [
        ("max", torch.max(t, 1)),
        ("min", torch.min(t.requires_grad_(True), 0)),
        ("sort", torch.sort(torch.from_numpy(np.linspace(1, 0, 60, dtype=F32).reshape(2, 30)), 1)),
        ("topk", torch.topk(torch.from_numpy(x.copy()).double(), 2)),
    ]
    for name, result in results:
        fields = []
        for field in ("values", "indices"):
            value = getattr(result, field)
            fields.append([field, {**encode(value.detach().numpy()), "requires_grad": value.requires_grad,
                                   "grad_fn": type(value.grad_fn).__name__ if value.grad_fn else None}])
        cases.append({"name": name, "fields": fields, "repr": repr(result)})
    return cases


def main() -> None:
    golden = {
        "source": f"torch {torch.__version__}, scripts/record_printing_golden.py",
        "tensor_cases": hand_picked() + random_cases(260),
        "size_cases": size_cases(),
        "return_types_cases": return_types_cases(),
    }
    OUT.write_text(json.dumps(golden, indent=1) + "\n")
    print(f"wrote {len(golden['tensor_cases'])} tensor cases to {OUT}")


if __name__ == "__main__":
    main()
