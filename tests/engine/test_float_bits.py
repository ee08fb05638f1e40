"""float32 results bit for bit as PyTorch 2.13's CPU kernels give them (issue 14): the
element-wise ops whose vectorised body and scalar tail PyTorch computes differently (Sleef
and libm, fused multiply-adds), their backward kernels, cumsum/cumprod (a double running
value) and softmax/log_softmax over a dim that is not the last, forward and backward. Golden
digests: tests/data/float_bits.json (an AVX512 machine: 16 float32 lanes) and
float_bits_avx2.json (an AVX2 one: 8 lanes), recorded by scripts/record_float_bits_golden.py
from the inputs of tests/engine/float_bits_cases.py; each case runs against both, with
the CPU capability set to the recording machine's (engine/cpu.py)."""
import hashlib
import importlib.util
import json
import pathlib

import numpy as np
import pytest

from gradrepl.engine import cpu
from gradrepl.engine import kernels as K
from gradrepl.engine.tensor import _new

HERE = pathlib.Path(__file__).resolve().parent
FILES = {"AVX512": "float_bits.json", "AVX2": "float_bits_avx2.json"}
ALL = {cap: json.loads((HERE.parent / "data" / name).read_text()) for cap, name in FILES.items()}
DATA = ALL["AVX512"]
_spec = importlib.util.spec_from_file_location("float_bits_cases", HERE / "float_bits_cases.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)




@pytest.fixture(autouse=True)
def recorded_threads(monkeypatch):
    """Above 32768 elements the results depend on PyTorch's thread count: the recorded one."""
    monkeypatch.setitem(K.THREADS, "n", DATA["threads"])


@pytest.fixture(params=list(FILES))
def data(request, monkeypatch):
    """One recording, with the thread count and CPU capability of the machine it came from."""
    d = ALL[request.param]
    assert d["capability"] == request.param
    monkeypatch.setitem(K.THREADS, "n", d["threads"])
    cpu.set_capability(request.param.lower())     # the conftest puts it back
    return d


def canonical(a):
    """As the recorder: C order, every NaN as 0x7fc00000."""
    a = np.array(a, np.float32, order="C")
    a[np.isnan(a)] = np.nan
    return np.abs(a, where=np.isnan(a), out=a)


def check(got, want):
    got = canonical(got)
    assert list(got.shape) == want["shape"]
    if "bits" in want:
        assert got.view(np.uint32).ravel().tolist() == want["bits"]
    assert hashlib.sha256(got.tobytes()).hexdigest() == want["sha256"]


def tensor(a, transposed):
    t = _new(np.ascontiguousarray(a))
    return t.t() if transposed else t


def _unary_cases():
    for i, (name, (dom, fn)) in enumerate(C.UNARY.items()):
        for key, a, tr in C.layouts(1000 * i, C.LIMITS.get(name)):
            yield pytest.param(name, dom, fn, a, tr, id=f"{name}|{key}")


@pytest.mark.parametrize("name,dom,fn,a,tr", list(_unary_cases()))
def test_forward(name, dom, fn, a, tr, torch, data):
    x = tensor(dom(a) if dom is not None else a, tr)
    key = name + "|" + (f"T{a.shape[1]}x{a.shape[0]}" if tr else str(a.size))
    if key not in data["unary"]:
        pytest.skip("not in this recording")
    check(fn(torch, torch.nn.functional, x)._a, data["unary"][key])


# a transposed input with a row-major gradient: PyTorch's loop is all scalar, libm's mish
# (and tanhf) called element by element; without the C kernels (_kernels.libm_float), above
# kernels._LIBM_MAX elements gradrepl rounds float64 values instead
_LIBM_IN_C = K._C is not None and hasattr(K._C, "libm_float") and hasattr(K._C, "libm_float2")
BACKWARD_GAPS = set() if _LIBM_IN_C else {"mish|T17x241", "mish|T331x303", "gelu_tanh|T17x241", "gelu_tanh|T331x303",
                 # pow(2, other - self) of a transposed difference: libm's powf element by element
                 # (above kernels._LIBM_MAX elements gradrepl rounds float64 values instead)
                 "logaddexp2|T331x303"}


def _backward_cases():
    for p in _unary_cases():
        if p.values[0] in C.BACKWARD:
            marks = [pytest.mark.xfail(strict=True, reason="libm element by element")] if p.id in BACKWARD_GAPS else []
            yield pytest.param(*p.values, id=p.id, marks=marks)


@pytest.mark.parametrize("name,dom,fn,a,tr", list(_backward_cases()))
def test_backward(name, dom, fn, a, tr, torch, data):
    x = tensor(dom(a) if dom is not None else a, tr).requires_grad_()
    g = _new(np.random.default_rng(7 + a.size).standard_normal(a.size).astype(np.float32))
    fn(torch, torch.nn.functional, x).backward(g.reshape(*x.shape))
    key = name + "|" + (f"T{a.shape[1]}x{a.shape[0]}" if tr else str(a.size))
    if key not in data["backward"]:
        pytest.skip("not in this recording")
    if name == "gelu" and data["capability"] == "AVX2" and not tr and a.size > 1:
        pytest.xfail("oneDNN's AVX2 gelu_erf is not emulated (its AVX512 code is)")
    check(x.grad._a, data["backward"][key])


def _same_order_cases():
    for p in _unary_cases():
        if p.values[0] in C.SAME_ORDER and p.values[4]:
            yield pytest.param(*p.values, id=p.id)


@pytest.mark.parametrize("name,dom,fn,a,tr", list(_same_order_cases()))
def test_backward_same_order(name, dom, fn, a, tr, torch, data):
    """A transposed input with a gradient laid out as it: the vectorised body runs."""
    x = tensor(dom(a) if dom is not None else a, tr).requires_grad_()
    fn(torch, torch.nn.functional, x).backward(tensor(C.same_order_grad(a), True))
    check(x.grad._a, data["backward_same_order"][f"{name}|T{a.shape[1]}x{a.shape[0]}"])


def _dim_cases(names):
    for name in names:
        for j, shape in enumerate(C.DIM_SHAPES):
            yield pytest.param(name, j, shape, id=f"{name}|{shape}")


@pytest.mark.parametrize("name,j,shape", list(_dim_cases(C.DIM)))
def test_dim_ops(name, j, shape, torch, data):
    x = _new(C.dim_input(shape, 50 + j))
    for d in range(len(shape)):
        check(C.DIM[name](torch, x, d)._a, data["dim"][f"{name}|{shape}|{d}"])


@pytest.mark.parametrize("name,j,shape", list(_dim_cases(C.DIM_BACKWARD)))
def test_dim_backward(name, j, shape, torch, data):
    """softmax and log_softmax's backward over every dim (recorded on the AVX2 machine only)."""
    if "dim_backward" not in data:
        pytest.skip("not in this recording")
    x, g = _new(C.dim_input(shape, 50 + j)), _new(C.dim_grad(shape, 50 + j))
    for d in range(len(shape)):
        check(C.DIM_BACKWARD[name](torch, x, d, g)._a, data["dim_backward"][f"{name}|{shape}|{d}"])


@pytest.mark.parametrize("shape", C.LAYER_NORM_SHAPES, ids=str)
@pytest.mark.parametrize("affine", [True, False])
def test_layer_norm(shape, affine, torch, data):
    """layer_norm forward (RowwiseMoments' chunks merged in its binary stack) and backward
    (the partial last vector's products fused into the row sums), with and without weight
    and bias (recorded on the AVX2 machine only)."""
    if "layer_norm" not in data:
        pytest.skip("not in this recording")
    for i, t in enumerate(C.layer_norm(torch, _new, shape, affine)):
        check(t._a, data["layer_norm"][f"{shape}|{affine}|{i}"])


@pytest.mark.parametrize("name", C.SUMS)
def test_sums(name, torch, data):
    """nansum/nanmean (sum's kernel, NaN as 0) and sums of transposed, permuted and sliced
    views in PyTorch's order (recorded on the AVX2 machine only)."""
    if "sums" not in data:
        pytest.skip("not in this recording")
    for j, shape in enumerate(C.SUM_SHAPES):
        check(C.SUMS[name](torch, _new, C.dim_input(shape, 90 + j))._a, data["sums"][f"{name}|{shape}"])


def test_threads_split_the_tail():
    """Above GRAIN_SIZE elements each thread's part has its own scalar tail: with one thread
    the 100003 sigmoids differ from the recorded two-thread ones (so the split is exercised)."""
    a = C.layouts(1000 * list(C.UNARY).index("sigmoid"))
    x = next(arr for key, arr, tr in a if key == "100003")
    want = DATA["unary"]["sigmoid|100003"]["sha256"]
    K.THREADS["n"] = 1
    one = hashlib.sha256(np.ascontiguousarray(K.sigmoid(x)).tobytes()).hexdigest()
    K.THREADS["n"] = DATA["threads"]
    two = hashlib.sha256(np.ascontiguousarray(K.sigmoid(x)).tobytes()).hexdigest()
    assert two == want
    if DATA["threads"] > 1:
        assert one != want


def test_scalar_tail_without_libm(monkeypatch):
    """Without the C library the tails fall back to float64 rounded once (never an error); the
    C kernels, linked to it, are then absent too."""
    monkeypatch.setattr(K, "_LIBM", [False])
    monkeypatch.setattr(K, "_C", None)
    x = np.array([0.5, -1.25, 3.0], np.float32)
    assert K.sinhf(x).tolist() == np.sinh(x.astype(np.float64)).astype(np.float32).tolist()


def test_glibc_logf_is_libms():
    """kernels._glibc_logf (every scalar std::log(float) above a few thousand elements) against
    this machine's libm logf: random bit patterns, subnormals, [0.5, 2), the special values."""
    lib = K._libm()
    if not lib:
        pytest.skip("no C library")
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.integers(0, 2 ** 32, 30000, dtype=np.uint64).astype(np.uint32).view(np.float32),
                        rng.integers(0x3f000000, 0x40000000, 30000).astype(np.uint32).view(np.float32),
                        np.abs(rng.standard_normal(20000) * 3).astype(np.float32),
                        np.array([0, -0.0, 1, 1e-45, 3e-39, 1.17549435e-38, 3.4e38, np.inf, -np.inf, np.nan, -2],
                                 np.float32)])
    want = np.array([lib.logf(v) for v in x.tolist()], np.float32)
    assert canonical(K._glibc_logf(x)).view(np.uint32).tolist() == canonical(want).view(np.uint32).tolist()


def test_glibc_erff_is_libms():
    """kernels._glibc_erff (gelu's scalar loop) against this machine's libm erff, element by
    element: every branch (tiny, |x| < 0.84375, < 1.25, < 1/0.35, < 6, beyond, inf, NaN)."""
    lib = K._libm()
    if not lib:
        pytest.skip("no C library")
    rng = np.random.default_rng(4)
    x = np.concatenate([rng.integers(0, 2 ** 32, 20000, dtype=np.uint64).astype(np.uint32).view(np.float32),
                        (rng.standard_normal(20000) * 3).astype(np.float32),
                        np.array([0, -0.0, 1e-40, -3e-39, 2e-9, 0.84375, -1.25, 2.857142, 6, -6, np.inf, -np.inf, np.nan],
                                 np.float32)])
    want = np.array([lib.erff(v) for v in x.tolist()], np.float32)
    got = K._glibc_erff(x)
    assert canonical(got).view(np.uint32).tolist() == canonical(want).view(np.uint32).tolist()
