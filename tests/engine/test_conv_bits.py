"""Convolution and pooling bit for bit as PyTorch 2.13 computes them with 2 threads on an
AVX512 machine and on an AVX2 one (engine/onednn.py: oneDNN's accumulation orders, and
slow_conv2d's for a single small image). Golden digests: tests/data/conv_bits.json (AVX512)
and conv_bits_avx2.json (AVX2), recorded by scripts/record_conv_bits_golden.py from the
inputs of tests/engine/conv_bits_cases.py; each file's cases run with gradrepl emulating the
capability it was recorded with."""
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
DATASETS = {d["capability"]: d for d in (json.loads((HERE.parent / "data" / name).read_text())
                                         for name in ("conv_bits.json", "conv_bits_avx2.json"))}
_spec = importlib.util.spec_from_file_location("conv_bits_cases", HERE / "conv_bits_cases.py")
C = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(C)
PARTS = ["output", "d input", "d weight", "d bias"]


@pytest.fixture(autouse=True)
def recorded_machine(monkeypatch, request):
    """The capability of the golden file a test reads (its `cap` parameter, else AVX512)
    and its threads; the conftest puts the capability back."""
    data = DATASETS[request.node.callspec.params.get("cap", "AVX512") if hasattr(request.node, "callspec")
                    else "AVX512"]
    monkeypatch.setitem(K.THREADS, "n", data["threads"])
    cpu.set_capability(data["capability"].lower())


def digest(a):
    return hashlib.sha256(np.array(a, np.float32, order="C").tobytes()).hexdigest()


def _conv_cases():
    for cap in sorted(DATASETS):
        for i, (key, name, n) in enumerate(C.cases()):
            marks = ([pytest.mark.xfail(strict=True, reason="not oneDNN's measured loops")]
                     if (name, n) in C.GAPS[cap] else [])
            yield pytest.param(cap, key, name, n, 100 + i, id=f"{cap}|{key}", marks=marks)


@pytest.mark.parametrize("cap,key,name,n,seed", list(_conv_cases()))
def test_conv(cap, key, name, n, seed, torch):
    got = C.run_conv(torch, _new, name, n, seed)
    want = DATASETS[cap]["conv"][key]
    bad = [part for part, t, w in zip(PARTS, got, want) if list(t.shape) != w["shape"] or digest(t._a) != w["sha256"]]
    assert not bad, f"{key}: {bad}"


@pytest.mark.parametrize("cap,key,name,n,seed", [("AVX2",) + c for c in C.cases_1x1()])
def test_conv_1x1(cap, key, name, n, seed, torch):
    """jit_1x1:avx2: output, d input and d bias to the bit; d weight is float64 sums rounded
    (its reduction is not emulated)."""
    got = C.run_conv(torch, _new, name, n, seed)
    want = DATASETS[cap]["conv1x1"][key]
    assert [list(t.shape) for t in got] == [w["shape"] for w in want]
    bad = [part for part, t, w in zip(PARTS, got, want) if part != "d weight" and digest(t._a) != w["sha256"]]
    assert not bad, f"{key}: {bad}"


@pytest.mark.parametrize("cap,key,name,n,seed", [("AVX2",) + c for c in C.cases_depthwise()])
def test_depthwise(cap, key, name, n, seed, torch):
    """jit_dw:avx2: output, d input and d bias to the bit, and d weight with a 3x3 kernel
    (a 5x5 kernel's is float64 sums rounded: not emulated)."""
    got = C.run_conv(torch, _new, name, n, seed)
    want = DATASETS[cap]["depthwise"][key]
    assert [list(t.shape) for t in got] == [w["shape"] for w in want]
    skip = "d weight" if C.DEPTHWISE[name][4] != 3 else None
    bad = [part for part, t, w in zip(PARTS, got, want) if part != skip and digest(t._a) != w["sha256"]]
    assert not bad, f"{key}: {bad}"


@pytest.mark.parametrize("section,cap,key,name,n,seed",
                         [("kernel4", "AVX2") + c for c in C.cases_kernel4()]
                         + [("transposed", "AVX2") + c for c in C.cases_transposed()]
                         + [("grouped", "AVX2") + c for c in C.cases_grouped()])
def test_kernel4_transposed_grouped(section, cap, key, name, n, seed, torch):
    """jit:avx2 with 4x4 kernels, conv_transpose2d (oneDNN's deconvolution: the convolution
    with data and output swapped; its bias gradient a reduction in order; a single small
    image in ATen's slow path) and 2 or 4 groups of 8 or 16 channels: all four results to
    the bit."""
    got = C.run_conv(torch, _new, name, n, seed)
    want = DATASETS[cap][section][key]
    bad = [part for part, t, w in zip(PARTS, got, want) if list(t.shape) != w["shape"] or digest(t._a) != w["sha256"]]
    assert not bad, f"{key}: {bad}"


@pytest.mark.parametrize("cap", sorted(DATASETS))
@pytest.mark.parametrize("name", list(C.POOLS))
@pytest.mark.parametrize("ties", [False, True])
def test_pool(cap, name, ties, torch):
    seed = 500 + list(C.POOLS).index(name)
    got = C.run_pool(torch, _new, name, seed, ties)
    want = DATASETS[cap]["pool"][f"{name}|{ties}"]
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


@pytest.mark.parametrize("cap,key", [("AVX512", "odd|2"), ("AVX512", "mnist3|2"), ("AVX512", "conv1d|4"),
                                     ("AVX2", "odd|2"), ("AVX2", "mixed|4"), ("AVX2", "conv1d_wide|4"),
                                     ("AVX2", "blitz1|5")])
def test_numpy_reference(cap, key, torch, monkeypatch):
    """Without the C module (NumPy's fma32 chains) the same bits."""
    monkeypatch.setattr(onednn, "_C", None)
    i, (_, name, n) = next((i, c) for i, c in enumerate(C.cases()) if c[0] == key)
    got = C.run_conv(torch, _new, name, n, 100 + i)
    assert [digest(t._a) for t in got] == [w["sha256"] for w in DATASETS[cap]["conv"][key]]


@pytest.mark.parametrize("ow, blocks", [(6, 4), (14, 4), (15, 2), (39, 2), (40, 1), (100, 1)])
def test_avx2_data_groups(ow, blocks):
    """jit:avx2's d input (stride 1): blocks of 8 output channels per chain by the output
    width (measured: 14 and 15, 39 and 40 are the edges)."""
    assert onednn._bd_group_avx2(ow) == blocks


def test_avx2_reduction_split(monkeypatch):
    """jit:avx2's weight and bias gradients on 2 threads: oneDNN's balancer gives the
    threads separate channel blocks when there are enough (one chain each), else splits the
    images; the bias of 24 channels (3 blocks) splits 16 images, not 5."""
    monkeypatch.setitem(K.THREADS, "n", 2)
    whole = lambda n, oh, ow: [(0, n * oh * ow)]
    halves = lambda n, oh, ow: [(0, (n + 1) // 2 * oh * ow), ((n + 1) // 2 * oh * ow, n * oh * ow)]
    assert onednn._chunks_avx2(4, 10, 10, 5, 5, 1, 6) == (halves(4, 10, 10), halves(4, 10, 10))
    assert onednn._chunks_avx2(4, 10, 10, 5, 5, 6, 16) == (whole(4, 10, 10), whole(4, 10, 10))
    assert onednn._chunks_avx2(16, 10, 10, 3, 3, 20, 24) == (whole(16, 10, 10), halves(16, 10, 10))
    assert onednn._chunks_avx2(5, 10, 10, 3, 3, 20, 24) == (whole(5, 10, 10), whole(5, 10, 10))
    monkeypatch.setitem(K.THREADS, "n", 1)
    assert onednn._chunks_avx2(16, 10, 10, 3, 3, 20, 24) == (whole(16, 10, 10), whole(16, 10, 10))
