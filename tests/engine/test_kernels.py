"""PyTorch's float32 kernels emulated bit for bit (engine/kernels.py), against
tests/data/kernels.json (its AVX512 kernels) and kernels_avx2.json (its AVX2 ones), recorded
from PyTorch 2.13 by scripts/record_kernels_golden.py: the inputs are regenerated from the
recorded seeds and the float32 outputs compared by SHA-256 (millions of inputs for exp and
the softmax rows), plus explicit hard inputs; each file's cases run with gradrepl emulating
the capability it was recorded with (engine/cpu.py)."""
import hashlib
import json
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gradrepl.engine import cpu, kernels as K
from gradrepl.engine.api import TORCH
from gradrepl.engine.rounding import fma32, fma64
from gradrepl.engine.tensor import wrap

DATASETS = {d["capability"]: d for d in (json.loads((pathlib.Path(__file__).parent.parent / "data" / name).read_text())
                                         for name in ("kernels.json", "kernels_avx2.json"))}
F = TORCH["nn"]["functional"]


@pytest.fixture
def golden(request):
    """One golden file (its capability's name), gradrepl emulating that capability (the
    conftest puts the capability back)."""
    cpu.set_capability(request.param)
    return DATASETS[request.param]


def per_capability(key, ids):
    """The golden cases under `key`, of each file."""
    return [pytest.param(cap, case, id=f"{cap}|{ids(case)}") for cap in sorted(DATASETS) for case in DATASETS[cap][key]]


def digest(a):
    return hashlib.sha256(np.ascontiguousarray(a, np.float32).tobytes()).hexdigest()


def uniform(lo, hi, n, seed):
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(np.float32)


def normal(shape, scale, seed):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


@pytest.mark.parametrize("golden,case", per_capability("exp", lambda c: f"{c['range']}x{c['n']}"), indirect=["golden"])
def test_expf_is_sleefs(golden, case):
    lo, hi = case["range"]
    assert digest(K.expf(uniform(lo, hi, case["n"], case["seed"]))) == case["sha256"]


@pytest.mark.parametrize("golden", sorted(DATASETS), indirect=True)
def test_expf_hard_inputs(golden):
    hard = golden["exp_hard"]
    got = K.expf(np.array(hard["inputs"], np.float32))
    want = np.array([float(v) for v in hard["values"]], np.float32)
    assert got.view(np.int32).tolist() == want.view(np.int32).tolist()


def test_glibc_exp_table_is_two_to_the_i_over_32():
    """The written-out exp2f_data table: 2**(i/32) correctly rounded to float64, less i << 47."""
    from decimal import Decimal, getcontext
    getcontext().prec = 40
    exact = np.array([float(Decimal(2) ** (Decimal(i) / 32)) for i in range(32)], np.float64)
    want = exact.view(np.uint64) - (np.arange(32, dtype=np.uint64) << np.uint64(47))
    assert K._GLIBC_T.dtype == np.uint64 and K._GLIBC_T.tolist() == want.tolist()


@pytest.mark.parametrize("golden,case", per_capability("rows", lambda c: f"{c['shape']}"), indirect=["golden"])
def test_softmax_and_log_softmax_rows(golden, case):
    rows, cols = case["shape"]
    x = normal((rows, cols), case["scale"], case["seed"])
    g = wrap(normal((rows, cols), 1.0, case["seed"] + 1000))
    for name in ("softmax", "log_softmax"):
        xt = wrap(x).requires_grad_()
        y = F[name](xt, dim=-1)
        y.backward(g)
        assert digest(y.detach()._a) == case[name], name
        if name == "softmax" and rows == 1 and cols >= K.LANES:
            continue        # one row of a vector or more: PyTorch's other backward kernel (not emulated)
        assert digest(xt.grad._a) == case[name + "_backward"], name + " backward"


@pytest.mark.parametrize("golden,case", per_capability("cross_entropy", lambda c: f"{c['shape']}"), indirect=["golden"])
def test_cross_entropy_forward_and_backward(golden, case):
    n, c = case["shape"]
    rng = np.random.default_rng(case["seed"])
    x = wrap((rng.standard_normal((n, c)) * 2).astype(np.float32)).requires_grad_()
    t = wrap(rng.integers(0, c, n))
    loss = F["cross_entropy"](x, t)
    loss.backward()
    assert loss.item() == case["loss"]
    assert digest(x.grad._a) == case["grad"]


@pytest.mark.parametrize("golden,case", per_capability("sigmoid", lambda c: str(c["n"])), indirect=["golden"])
def test_sigmoid_and_silu_body_and_tail(golden, case):
    x = wrap(normal((case["n"],), 5.0, case["seed"]))
    assert digest(TORCH["sigmoid"](x)._a) == case["sha256"]
    assert digest(F["silu"](x)._a) == case["silu"]


@pytest.mark.parametrize("golden", sorted(DATASETS), indirect=True)
def test_sigmoid_and_silu_scalar_tails(golden):
    case = golden["sigmoid_tails"]
    xs = normal(tuple(case["shape"]), 5.0, case["seed"])
    assert digest(np.concatenate([TORCH["sigmoid"](wrap(r))._a for r in xs])) == case["sigmoid"]
    assert digest(np.concatenate([F["silu"](wrap(r))._a for r in xs])) == case["silu"]


@pytest.mark.parametrize("golden,case", per_capability("tanh_backward", lambda c: str(c["n"])), indirect=["golden"])
def test_tanh_backward_fuses(golden, case):
    n = case["n"]
    y = uniform(-1, 1, n, case["seeds"][0])
    assert digest(K.tanh_backward(normal((n,), 1.0, case["seeds"][1]), y)) == case["sha256"]


def test_tanh_backward_is_the_kernel():
    x = wrap(normal((40,), 2.0, 3)).requires_grad_()
    y = TORCH["tanh"](x)
    g = normal((40,), 1.0, 4)
    y.backward(wrap(g))
    assert x.grad._a.tolist() == K.tanh_backward(g, y.detach()._a).tolist()


def test_logf_special_values():
    got = K.logf(np.array([0.0, -0.0, np.inf, -1.0, np.nan, 1.0, 2.0], np.float32))
    assert got[0] == got[1] == -np.inf and got[2] == np.inf and np.isnan(got[3]) and np.isnan(got[4])
    assert got[5] == 0 and got[6] == np.float32(0.6931472)


def test_logf_near_one_and_across_binades():
    # Sleef's logf is within one ulp of the true logarithm everywhere
    x = np.concatenate([uniform(0.5, 2, 100_000, 7), np.float32(2) ** np.arange(-126, 128, dtype=np.float32),
                        np.nextafter(np.float32(1), np.float32([0, 2]))])
    exact = np.log(x.astype(np.float64))
    got = K.logf(x).astype(np.float64)
    ulp = np.spacing(np.abs(exact).astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(got - exact) <= ulp)


def test_nll_sum_cascade_levels():
    # level 0 flushes after b = 0 and every multiple of 16: the first element is added last
    picked = np.array([1e8] + [1.0] * 40, np.float32)
    assert K.nll_sum(picked) == -(np.float32(40) + np.float32(1e8))
    assert K.nll_sum(np.array([2.5], np.float32)) == np.float32(-2.5)


@settings(max_examples=300, deadline=None)
@given(*[st.floats(width=32, allow_nan=False, allow_infinity=False)] * 3)
def test_fma32_rounds_once(a, b, c):
    from fractions import Fraction
    got = fma32(np.float32(a), np.float32(b), np.float32(c))
    if not np.isfinite(got):
        return
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    neighbours = [v for v in (np.nextafter(got, np.float32(-np.inf)), np.nextafter(got, np.float32(np.inf)))
                  if np.isfinite(v)]
    # no float32 is nearer the exact value than the result
    assert all(abs(Fraction(float(got)) - exact) <= abs(Fraction(float(v)) - exact) for v in neighbours)


@settings(max_examples=300, deadline=None)
@given(st.floats(-1e6, 1e6, allow_nan=False), st.integers(0, 10 ** 6), st.floats(-1e9, 1e9, allow_nan=False))
def test_fma64_rounds_once(step, i, start):
    # arange's `start + step * i` contracted to one fused multiply-add in double
    from fractions import Fraction
    got = float(fma64(step, float(i), start))
    exact = Fraction(step) * i + Fraction(start)
    assert got == float(exact)      # Fraction's float() rounds once, to nearest even


def test_fma64_keeps_the_product_error():
    # -8 + 80 * 0.1: the double product rounds to 8 exactly, the fused one keeps 2**-51
    assert fma64(0.1, 80.0, -8.0) == 2.0 ** -51
    assert fma64(np.array([0.1, 0.1]), np.array([80.0, 10.0]), -8.0).tolist() == [2.0 ** -51, -7.0]


def test_fma32_half_way_sums():
    # float64 sums on a float32 half-way point whose rounding error decides the direction
    a = np.float32(1 + 2 ** -23)
    c = np.float32(2 ** -24)
    b = np.float32(1)
    assert fma32(a, b, c) == np.float32(1 + 2 ** -22)     # a tie: to even
    a = np.float32(1 + 2 ** -12)                          # a*a = 1 + 2**-11 + 2**-24 exactly
    assert fma32(a, a, np.float32(2 ** -60)) == np.float32(1 + 2 ** -11 + 2 ** -23)
    assert fma32(a, a, np.float32(-2 ** -60)) == np.float32(1 + 2 ** -11)
    x = np.full(20, a)                                    # the same among many (the array path)
    assert (fma32(x, x, np.float32(2 ** -60)) == np.float32(1 + 2 ** -11 + 2 ** -23)).all()


@pytest.mark.parametrize("name, derivative", [("sin", lambda x: x.cos()), ("cos", lambda x: -x.sin()),
                                               ("sinh", lambda x: x.cosh()), ("cosh", lambda x: x.sinh())])
def test_backward_uses_the_forward_kernels(name, derivative):
    # PyTorch's SinBackward0 is grad * self.cos(): the same cos kernel as the forward's
    x = wrap(normal((300,), 2.0, 8)).requires_grad_()
    getattr(x, name)().sum().backward()
    assert x.grad.tolist() == derivative(x.detach()).tolist()


@pytest.mark.parametrize("fast, reference", [(K.expf, K._expf), (K.logf, K._logf)], ids=["exp", "log"])
def test_fast_paths_equal_the_step_by_step_port(fast, reference):
    # every float32 bit pattern is fair: NaN, infinities, subnormals, negative numbers
    bits = np.random.default_rng(5).integers(0, 2 ** 32, 300_000, dtype=np.uint64).astype(np.uint32)
    x = np.concatenate([bits.view(np.float32), uniform(-104, 89, 100_000, 6), uniform(0.5, 2, 100_000, 7)])
    got = fast(x)
    want = np.concatenate([reference(x[i:i + 65536], fma32) for i in range(0, x.size, 65536)])
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), x[~same][:5]


def _all_in_binade(lo, step=1):
    """Every float32 in [lo, 2*lo) (every step-th bit pattern)."""
    start, stop = np.float32(lo).view(np.int32), np.float32(2 * lo).view(np.int32)
    return np.arange(start, stop, step, dtype=np.int32).view(np.float32)


@pytest.mark.parametrize("lo", [2.0 ** -20, 0.25, 1.0, 8.0, 64.0])
def test_expf_fast_path_is_the_step_by_step_kernel(lo):
    # the fast path (float64 sums, few NumPy calls) against Sleef's steps with fma32, on both
    # signs of a binade and in the small arrays of a training step (32 x 24)
    x = _all_in_binade(lo, 61)
    for v in (x, -x, x[:768].reshape(32, 24), -x[:31]):
        assert K.expf(v).view(np.int32).tolist() == K._expf(v, fma32).view(np.int32).tolist()


def test_expf_fast_path_near_overflow_and_underflow():
    x = np.concatenate([uniform(87, 104, 20000, 11), uniform(-104, -87, 20000, 12), [np.float32(88.0)]])
    with np.errstate(over="ignore"):
        want = K._expf(x, fma32)
    assert K.expf(x).view(np.int32).tolist() == want.view(np.int32).tolist()
    assert K.expf(np.float32([80.0, -80.0])).view(np.int32).tolist() == \
        K._expf(np.float32([80.0, -80.0]), fma32).view(np.int32).tolist()


@pytest.mark.parametrize("lo", [2.0 ** -126, 2.0 ** -40, 0.5, 1.0, 2.0, 16.0, 2.0 ** 20])
def test_logf_fast_path_is_the_step_by_step_kernel(lo):
    x = _all_in_binade(lo, 41)
    for v in (x, x[:32]):
        assert K.logf(v).view(np.int32).tolist() == K._logf(v, fma32).view(np.int32).tolist()


def test_logf_small_and_empty_arrays():
    assert K.logf(np.zeros(0, np.float32)).shape == (0,)
    x = np.float32([1.0, 24.0, 3.5, np.nextafter(np.float32(1), np.float32(2))])
    assert K.logf(x).view(np.int32).tolist() == K._logf(x, fma32).view(np.int32).tolist()


def _nll_sum_one_by_one(picked):
    """cascade_sum's levels, one addition at a time (the definition nll_sum follows)."""
    levels = [np.float32(0)] * 8
    for b, v in enumerate(picked):
        levels[0] = np.float32(levels[0] - v)
        if b % 16 == 0:
            for j in range(7):
                if b & (15 << (4 * j)):
                    break
                levels[j + 1] = np.float32(levels[j + 1] + levels[j])
                levels[j] = np.float32(0)
    acc = np.float32(0)
    for v in levels:
        acc = np.float32(acc + v)
    return acc


@pytest.mark.parametrize("n", [1, 2, 15, 16, 17, 18, 32, 33, 255, 256, 257, 258, 4097, 5000])
def test_nll_sum_is_cascade_sum_one_by_one(n):
    rng = np.random.default_rng(n)
    picked = (rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)).astype(np.float32)
    picked[rng.random(n) < 0.1] = np.float32(-0.0)
    got, want = K.nll_sum(picked), _nll_sum_one_by_one(picked)
    assert np.float32(got).view(np.int32) == np.float32(want).view(np.int32)


def test_fma32_doubtful_sums_with_broadcasting():
    # half-way sums among many ordinary ones, a*b broadcast against a bigger c, exact zeros
    a = np.float32(1 + 2 ** -12)
    col = np.full((3, 1), a, np.float32)
    row = np.full((1, 4), a, np.float32)
    c = np.zeros((3, 4), np.float32)
    c[0] = np.float32(2 ** -60)
    c[1] = np.float32(-2 ** -60)
    got = fma32(col, row, c)
    assert (got[0] == np.float32(1 + 2 ** -11 + 2 ** -23)).all() and (got[1] == np.float32(1 + 2 ** -11)).all()
    assert (got[2] == np.float32(1 + 2 ** -11)).all()      # a true tie (c = 0): to even
    y = np.float32([1, -1, 0.5, 1, -1])
    assert fma32(-y, y, np.float32(1)).tolist() == [0, 0, 0.75, 0, 0]
    tiny = np.float32(2 ** -75)                 # a*b + c below float32's normal range: ties to even
    for n in (1, 9):
        t = np.full(n, tiny)
        assert fma32(t, t, np.full(n, np.float32(2 ** -149))).tolist() == [2 ** -148] * n
        assert fma32(t, t, np.full(n, np.float32(3 * 2 ** -149))).tolist() == [2 ** -147] * n
        assert fma32(t, -t, np.full(n, np.float32(2 ** -126))).tolist() == [2 ** -126] * n
        three = np.full(n, np.float32(3 * 2 ** -76))           # 0.75 of the smallest subnormal
        assert fma32(three, t, np.full(n, np.float32(-2 ** -126))).tolist() == [-2 ** -126 + 2 ** -149] * n


def test_tanh_backward_is_fma32_near_saturation_and_zero():
    # outputs at and near +-1 (exact half-way sums), tiny ones, zeros, NaN: the fused kernel
    rng = np.random.default_rng(21)
    one_less = (np.float32(1) - rng.integers(0, 4096, 20000).astype(np.float32) * np.float32(2 ** -24))
    y = np.concatenate([one_less, -one_less, uniform(-0.125, 0.125, 20000, 22), uniform(-1, 1, 20000, 23),
                        np.float32([1, -1, 0, -0.0, np.nan, 0.125, -0.125, 2 ** -70])])
    g = normal(y.shape, 1.0, 24)
    got = K.tanh_backward(g, y)
    want = g * fma32(-y, y, np.float32(1))
    assert got.view(np.int32).tolist() == want.view(np.int32).tolist()
    assert K.tanh_backward(g[:6].reshape(2, 3), y[:6].reshape(2, 3)).shape == (2, 3)
    big = np.float32([3.0, 2 ** 30 + 64, -(2 ** 27 + 8), 1.5])      # not tanh's, still the fused kernel
    assert K.tanh_backward(np.ones(4, np.float32), big).tolist() == fma32(-big, big, np.float32(1)).tolist()


@settings(max_examples=300, deadline=None)
@given(st.floats(-1, 1), st.floats(-1e3, 1e3), st.floats(-1e3, 1e3))
def test_fma64_is_the_exact_sum_within_an_ulp(a, b, c):
    from fractions import Fraction
    from gradrepl.engine.rounding import fma64
    got = float(fma64(a, b, c))
    exact = float(Fraction(a) * Fraction(b) + Fraction(c))
    assert got == exact or abs(got - exact) <= np.spacing(abs(exact))


def test_tanh_backward_fuses_in_double():
    """micrograd's cross-check: PyTorch's double tanh_backward computes 1 - y*y fused, so
    d tanh(n)/dn at tanh(n) = 0.7071067811865476 is 0.49999999999999994, not ...9999."""
    n = wrap(np.array([0.8813735870195432])).requires_grad_()
    TORCH["tanh"](n).backward()
    assert n.grad.tolist() == [0.49999999999999994]
