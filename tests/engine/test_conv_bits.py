"""Convolution and pooling bit for bit as PyTorch 2.13 computes them on an AVX512 machine
with 2 threads (engine/onednn.py: oneDNN's accumulation orders, and slow_conv2d's for a
single small image). Golden digests:
tests/data/conv_bits.json, recorded by scripts/record_conv_bits_golden.py from the inputs of
tests/engine/conv_bits_cases.py."""
import hashlib
import importlib.util
import json
import pathlib

import numpy as np
import pytest

from gradrepl.engine import cpu, onednn
from gradrepl.engine import kernels as K
from gradrepl.engine.tensor import _new

HERE = pathlib.Path(__file__).resolve().parent
DATA = json.loads((HERE.parent / "data" / "conv_bits.json").read_text())
_spec = importlib.util.spec_from_file_location("conv_bits_cases", HERE / "conv_bits_cases.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)
PARTS = ["output", "d input", "d weight", "d bias"]


@pytest.fixture(autouse=True)
def recorded_machine(monkeypatch):
    monkeypatch.setitem(K.THREADS, "n", DATA["threads"])
    cpu.set_capability(DATA["capability"].lower())     # the conftest puts it back


def digest(a):
    return hashlib.sha256(np.array(a, np.float32, order="C").tobytes()).hexdigest()


def _conv_cases():
    for i, (key, name, n) in enumerate(C.cases()):
        marks = [pytest.mark.xfail(strict=True, reason="not oneDNN's measured loops")] if (name, n) in C.GAPS else []
        yield pytest.param(key, name, n, 100 + i, id=key, marks=marks)


@pytest.mark.parametrize("key,name,n,seed", list(_conv_cases()))
def test_conv(key, name, n, seed, torch):
    got = C.run_conv(torch, _new, name, n, seed)
    want = DATA["conv"][key]
    bad = [part for part, t, w in zip(PARTS, got, want) if list(t.shape) != w["shape"] or digest(t._a) != w["sha256"]]
    assert not bad, f"{key}: {bad}"


@pytest.mark.parametrize("name", list(C.POOLS))
@pytest.mark.parametrize("ties", [False, True])
def test_pool(name, ties, torch):
    seed = 500 + list(C.POOLS).index(name)
    got = C.run_pool(torch, _new, name, seed, ties)
    want = DATA["pool"][f"{name}|{ties}"]
    bad = [part for part, t, w in zip(["output", "d input"], got, want)
           if list(t.shape) != w["shape"] or digest(t._a) != w["sha256"]]
    assert not bad, bad


def test_one_thread_is_one_chain(monkeypatch):
    """With one thread the weight gradient is one chain; with two, two partial sums added:
    the recorded (two-thread) bits differ from the one-thread ones for this case."""
    x, w, b, g = C.conv_inputs("mnist2", 4, 3)
    monkeypatch.setitem(K.THREADS, "n", 1)
    one, _ = onednn.backward_weights(g, x, w.shape, (2, 2), (1, 1), False)
    monkeypatch.setitem(K.THREADS, "n", 2)
    two, _ = onednn.backward_weights(g, x, w.shape, (2, 2), (1, 1), False)
    assert one.shape == two.shape == w.shape
    assert not np.array_equal(one, two)


def test_fma_gemm_c_matches_numpy():
    """The C chains (fmaf) and the NumPy reference (rounding.fma32) give the same bits."""
    rng = np.random.default_rng(0)
    a = rng.standard_normal((37, 150)).astype(np.float32)
    bt = rng.standard_normal((7, 150)).astype(np.float32)
    c = rng.standard_normal((37, 7)).astype(np.float32)
    want = onednn.fma_gemm_np(a, bt, c)
    assert onednn.fma_gemm(a, bt, c).tobytes() == want.tobytes()
    # not a correctly rounded dot product: the chain rounds after every step
    exact = (a.astype(np.float64) @ bt.T.astype(np.float64) + c).astype(np.float32)
    assert not np.array_equal(want, exact)


def test_mkldnn_choice():
    """ATen's use_mkldnn: one image with few values and a small kernel goes elsewhere."""
    x1 = np.zeros((1, 16, 14, 14), np.float32)
    w3 = np.zeros((16, 16, 3, 3), np.float32)
    assert not onednn.uses_mkldnn(x1, w3, (1, 1), (1, 1), 1)
    assert onednn.uses_mkldnn(np.zeros((2, 16, 14, 14), np.float32), w3, (1, 1), (1, 1), 1)
    assert onednn.uses_mkldnn(x1, np.zeros((16, 16, 5, 5), np.float32), (1, 1), (1, 1), 1)
    assert onednn.uses_mkldnn(np.zeros((1, 16, 40, 40), np.float32), w3, (1, 1), (1, 1), 1)


@pytest.mark.parametrize("key", ["odd|2", "mnist3|2", "conv1d|4"])
def test_numpy_reference(key, torch, monkeypatch):
    """Without the C module (NumPy's fma32 chains) the same bits."""
    monkeypatch.setattr(onednn, "_C", None)
    i, (_, name, n) = next((i, c) for i, c in enumerate(C.cases()) if c[0] == key)
    got = C.run_conv(torch, _new, name, n, 100 + i)
    assert [digest(t._a) for t in got] == [w["sha256"] for w in DATA["conv"][key]]
