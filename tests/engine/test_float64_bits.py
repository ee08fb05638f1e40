"""float64 results bit for bit as PyTorch 2.13's CPU kernels give them (issue 14): the ops
whose Vectorized<double> code calls Sleef's double functions (engine/_kernels.c's sleef64,
lane by lane) with the C library's in the scalar tail, softmax's rows, erfcx, log_ndtr and
Cephes' Bessel functions (float32 too).
Golden digests: tests/data/float64_bits_avx2.json (an AVX2 machine: 4 double lanes), recorded
by scripts/record_float64_bits_golden.py from the inputs of tests/engine/float64_bits_cases.py,
run with the CPU capability and thread count of the recording machine (engine/cpu.py).
Without the C kernels gradrepl falls back to NumPy's functions (other last bits): skipped."""
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
FILES = {"AVX2": "float64_bits_avx2.json", "AVX512": "float64_bits.json"}
ALL = {cap: json.loads((HERE.parent / "data" / name).read_text())
       for cap, name in FILES.items() if (HERE.parent / "data" / name).exists()}
_spec = importlib.util.spec_from_file_location("float64_bits_cases", HERE / "float64_bits_cases.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)

pytestmark = pytest.mark.skipif(not K.HAS_C64, reason="the C kernels (_kernels) are not built")



@pytest.fixture(params=list(ALL))
def data(request, monkeypatch):
    d = ALL[request.param]
    monkeypatch.setitem(K.THREADS, "n", d["threads"])
    cpu.set_capability(request.param.lower())     # the conftest puts it back
    return d


def canonical(a, dtype=np.float64):
    a = np.array(a, dtype, order="C")
    a[np.isnan(a)] = np.nan
    return np.abs(a, where=np.isnan(a), out=a)


def check(got, want, dtype=np.float64):
    got = canonical(got, dtype)
    assert list(got.shape) == want["shape"]
    if "bits" in want:
        assert got.view(np.uint64 if dtype == np.float64 else np.uint32).ravel().tolist() == want["bits"]
    assert hashlib.sha256(got.tobytes()).hexdigest() == want["sha256"]


def tensor(a, transposed):
    t = _new(np.ascontiguousarray(a))
    return t.t() if transposed else t


def _cases(table, seed_step):
    for i, (name, (dom, fn)) in enumerate(table.items()):
        for key, a, tr in C.layouts(seed_step * i):
            yield pytest.param(name, dom, fn, a, tr, key, id=f"{name}|{key}")


@pytest.mark.parametrize("name,dom,fn,a,tr,key", list(_cases(C.UNARY, 1000)))
def test_forward(name, dom, fn, a, tr, key, torch, data):
    x = tensor(dom(a) if dom is not None else a, tr)
    check(fn(torch, torch.nn.functional, x)._a, data["unary"][f"{name}|{key}"])


@pytest.mark.parametrize("name,dom,fn,a,tr,key", [p for p in _cases(C.UNARY, 1000) if p.values[0] in C.BACKWARD])
def test_backward(name, dom, fn, a, tr, key, torch, data):
    x = tensor(dom(a) if dom is not None else a, tr).requires_grad_()
    y = fn(torch, torch.nn.functional, x)
    y.backward(_new(C.grad_for(a)).reshape(*y.shape))
    check(x.grad._a, data["backward"][f"{name}|{key}"])


@pytest.mark.parametrize("name,dom,fn,a,tr,key", list(_cases(C.UNARY32, 500)))
def test_forward_float32(name, dom, fn, a, tr, key, torch, data):
    with np.errstate(all="ignore"):
        x = tensor((dom(a) if dom is not None else a).astype(np.float32), tr)
    check(fn(torch, torch.nn.functional, x)._a, data["unary32"][f"{name}|{key}"], np.float32)
