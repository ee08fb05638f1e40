"""The work PyTorch's CPU build hands to MKL gives PyTorch's bits here too (engine/mkl.py).

tests/data/mkl_golden.npz was recorded from PyTorch 2.13 (scripts/record_mkl_golden.py):
VML functions in float32 and float64, and matrix products in the layouts that choose other
BLAS flags. Every check goes through gradrepl's public ops (torch.sin, @, addmm, bmm, ...),
so the routing is tested with the kernels. Where the `mkl` wheel is not installed (it is a
dependency on x86-64 Linux only), the MKL checks skip and the NumPy fallback is checked.
"""
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from gradrepl.engine import mkl
from gradrepl.engine.api import TORCH
from gradrepl.engine.tensor import wrap

GOLDEN = np.load(pathlib.Path(__file__).resolve().parents[1] / "data" / "mkl_golden.npz")
HAS_MKL = bool(mkl.lib())
needs_mkl = pytest.mark.skipif(not HAS_MKL, reason="the mkl wheel is not installed on this platform")
FUNCS = sorted({k.split("|")[1] for k in GOLDEN.files if k.startswith("vml|")})
MM = sorted({int(k.split("|")[1]) for k in GOLDEN.files if k.startswith("mm|")})
BMM = sorted({int(k.split("|")[1]) for k in GOLDEN.files if k.startswith("bmm|")})


def same_bits(got, want):
    got = np.asarray(got)
    assert got.shape == want.shape and got.dtype == want.dtype
    differ = ~((got == want) | (np.isnan(got) & np.isnan(want)))
    assert not differ.any(), f"{int(differ.sum())} of {want.size} values differ in the last bits"


def column_major(a):
    return wrap(np.asfortranarray(a))     # the same values, stored as PyTorch's x.t().contiguous().t()


@needs_mkl
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", FUNCS)
def test_vml_functions_are_pytorchs(name, dtype):
    x = GOLDEN[f"vml|{name}|{dtype}|in"]
    same_bits(getattr(TORCH[name](wrap(x)), "_a"), GOLDEN[f"vml|{name}|{dtype}|out"])


@needs_mkl
def test_vml_on_a_strided_view_and_a_scalar():
    x = GOLDEN["vml|tanh|float32|in"]
    want = GOLDEN["vml|tanh|float32|out"]
    same_bits(TORCH["tanh"](wrap(x)[::3])._a, want[::3])
    same_bits(TORCH["tanh"](wrap(x[7].copy()))._a, want[7])


@needs_mkl
def test_vml_runs_small_arrays_on_one_thread_with_the_same_bits():
    """Below PyTorch's grain size VML runs on one thread (no second thread to wake), above it
    on MKL's count; every element has the bits of the other split."""
    threads = TORCH["get_num_threads"]()
    rng = np.random.default_rng(3)
    try:
        TORCH["set_num_threads"](2)
        for n in (5, 6400, mkl._VML_GRAIN - 1, mkl._VML_GRAIN, 3 * mkl._VML_GRAIN + 7):
            x = (rng.standard_normal(n) * 3).astype(np.float32)
            got = mkl.vml("tanh", x)
            assert mkl._VML_THREADS[1] == (1 if n < mkl._VML_GRAIN else 2)
            # the other thread count behind vml's back (it believes its own is set): the same bits
            mkl.lib().MKL_Domain_Set_Num_Threads(1 if n >= mkl._VML_GRAIN else 2, mkl._MKL_DOMAIN_VML)
            same_bits(mkl.vml("tanh", x), got)
            mkl._VML_THREADS[1] = None
    finally:
        TORCH["set_num_threads"](threads)
    assert mkl._VML_THREADS[0] == threads


@needs_mkl
@pytest.mark.parametrize("i", MM)
def test_matrix_products_are_pytorchs(i):
    a, b, c = GOLDEN[f"mm|{i}|a"], GOLDEN[f"mm|{i}|b"], GOLDEN[f"mm|{i}|c"]
    same_bits((wrap(a) @ wrap(b))._a, GOLDEN[f"mm|{i}|nn"])
    same_bits((column_major(a) @ wrap(b))._a, GOLDEN[f"mm|{i}|tn"])
    same_bits((wrap(a) @ column_major(b))._a, GOLDEN[f"mm|{i}|nt"])
    same_bits(TORCH["addmm"](wrap(c), wrap(a), column_major(b))._a, GOLDEN[f"mm|{i}|addmm"])
    same_bits((wrap(a) @ wrap(b)[:, 0])._a, GOLDEN[f"mm|{i}|mv"])
    same_bits((wrap(b).t() @ wrap(a)[0])._a, GOLDEN[f"mm|{i}|mvT"])
    same_bits((wrap(a)[0] @ wrap(b)[:, 0])._a, GOLDEN[f"mm|{i}|dot"])


@needs_mkl
def test_a_products_bits_follow_torch_set_num_threads():
    i = next(j for j in MM if (GOLDEN[f"mm|{j}|nn"] != GOLDEN[f"mm|{j}|nn1"]).any())   # one whose bits differ
    a, b = wrap(GOLDEN[f"mm|{i}|a"]), wrap(GOLDEN[f"mm|{i}|b"])
    threads = TORCH["get_num_threads"]()
    try:
        TORCH["set_num_threads"](1)
        same_bits((a @ b)._a, GOLDEN[f"mm|{i}|nn1"])
    finally:
        TORCH["set_num_threads"](threads)
    same_bits((a @ b)._a, GOLDEN[f"mm|{i}|nn"])


@needs_mkl
@pytest.mark.parametrize("i", BMM)
def test_batched_products_are_pytorchs(i):
    a, b = GOLDEN[f"bmm|{i}|a"], GOLDEN[f"bmm|{i}|b"]
    same_bits(TORCH["bmm"](wrap(a), wrap(b))._a, GOLDEN[f"bmm|{i}|out"])
    bt = wrap(np.ascontiguousarray(np.swapaxes(b, 1, 2))).transpose(1, 2)
    same_bits(TORCH["bmm"](wrap(a), bt)._a, GOLDEN[f"bmm|{i}|outT"])
    same_bits((wrap(a[:, None]) @ wrap(b[0]))._a, GOLDEN[f"bmm|{i}|bcast"])


def test_without_mkl_the_numpy_kernels_answer():
    """GRADREPL_MKL=0 (or no mkl wheel): the same ops run on NumPy's kernels."""
    code = ("import numpy as np\nfrom gradrepl.engine import mkl\nfrom gradrepl.engine.api import TORCH\n"
            "from gradrepl.engine.tensor import wrap\n"
            "assert mkl.lib() is False and mkl.mm(np.ones((2, 2), np.float32), np.ones((2, 2), np.float32)) is None\n"
            "x = wrap(np.linspace(-2, 2, 7, dtype=np.float32))\n"
            "print(TORCH['tanh'](x)._a.tolist() == np.tanh(x._a.astype(np.float64)).astype(np.float32).tolist(),"
            " (x.reshape(7, 1) @ x.reshape(1, 7))._a.tolist() == np.outer(x._a, x._a).tolist())\n")
    env = dict(os.environ, GRADREPL_MKL="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]


@needs_mkl
def test_small_float32_products_run_on_one_thread_with_the_bits_of_two():
    """mm runs small float32 products (at least 12 rows, at most 2**20 multiply-adds) on one
    MKL thread: the bits of PyTorch's two threads, without waking the second one. Random
    shapes and layouts of that kind, and makemore's six products, against two threads behind
    mm's back; 10 rows (golden mm 9: the bits do depend on the threads there) stays on MKL's count."""
    threads = TORCH["get_num_threads"]()
    rng = np.random.default_rng(5)
    shapes = [(32, 30, 200, 0, 0), (32, 200, 24, 0, 0), (32, 24, 200, 0, 1), (200, 32, 24, 1, 0),
              (32, 200, 30, 0, 1), (30, 32, 200, 1, 0)]
    while len(shapes) < 40:
        m, k, n = (int(v) for v in np.exp(rng.uniform(np.log(12), np.log(1500), 3)))
        if m * k * n <= mkl._SMALL_MNK:
            shapes.append((m, k, n, *(int(v) for v in rng.integers(0, 2, 2))))
    try:
        TORCH["set_num_threads"](2)
        for m, k, n, ta, tb in shapes:
            a = rng.standard_normal((k, m) if ta else (m, k)).astype(np.float32)
            b = rng.standard_normal((n, k) if tb else (k, n)).astype(np.float32)
            a, b = (a.T if ta else a), (b.T if tb else b)
            got = mkl.mm(a, b)
            assert mkl._BLAS_THREADS[0] == 1
            mkl._blas_threads(mkl.lib(), 2)
            mkl._BLAS_THREADS[0] = 1          # mm believes its one thread is set
            same_bits(got, np.asarray(mkl.mm(a, b)))
            mkl._BLAS_THREADS[0] = None
        i = 9
        a, b = GOLDEN[f"mm|{i}|a"], GOLDEN[f"mm|{i}|b"]
        mkl.mm(GOLDEN["mm|1|a"], GOLDEN["mm|1|b"])          # a small product first
        same_bits((wrap(a) @ wrap(b))._a, GOLDEN[f"mm|{i}|nn"])
        assert mkl._BLAS_THREADS[0] == 2
        mkl.mm(GOLDEN["mm|1|a"], GOLDEN["mm|1|b"])          # and batched products after one
        x = GOLDEN[f"bmm|{BMM[-1]}|a"]
        same_bits(TORCH["bmm"](wrap(x), wrap(GOLDEN[f"bmm|{BMM[-1]}|b"]))._a, GOLDEN[f"bmm|{BMM[-1]}|out"])
    finally:
        TORCH["set_num_threads"](threads)
