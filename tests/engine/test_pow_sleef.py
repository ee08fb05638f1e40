"""x ** b for exponents PyTorch's pow kernel does not special-case goes through a port of
Sleef's powf (engine/kernels.py). PyTorch's own bits are checked by the golden case
tests/data/engine_cases/pow_float_exponents; here: the port stays within Sleef's 1-ulp bound
of the exact power, gives exact powers exactly, and follows C's pow for special values."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.engine.kernels import _powf_sleef, pow_scalar

f32 = np.float32
FLOATS = st.floats(-1e6, 1e6, allow_nan=False, width=32)


@settings(max_examples=60, deadline=None)
@given(st.lists(FLOATS, min_size=32, max_size=96), st.sampled_from([4, 5, 7, -3, 2.5, 1.7, 0.3, -0.7, 33.3]))
def test_within_one_ulp_of_the_exact_power(values, b):
    x = np.array(values, f32)
    got = _powf_sleef(x, f32(b))
    with np.errstate(all="ignore"):
        exact = np.power(x.astype(np.float64), float(f32(b)))
    finite = np.isfinite(exact) & (np.abs(exact) < 3e38) & (np.abs(exact) > 1e-37)
    assert np.array_equal(np.isnan(got), np.isnan(exact))
    ulp = np.spacing(np.abs(exact[finite]).astype(f32)).astype(np.float64)
    assert (np.abs(got[finite] - exact[finite]) <= ulp).all()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-40, 40), min_size=32, max_size=64), st.sampled_from([4, 5]))
def test_exact_powers_are_exact(ints, b):
    x = np.array(ints, f32)
    assert np.array_equal(pow_scalar(x, b), np.power(x.astype(np.float64), b).astype(f32))


def test_special_values_follow_c_pow():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, -2.0] * 4, f32)
    for b in (4, -3, 2.5, -1.5, 0.3):
        with np.errstate(all="ignore"):
            want = np.power(x, f32(b))
        got = _powf_sleef(x, f32(b))
        same = (got == want) & (np.signbit(got) == np.signbit(want)) | (np.isnan(got) & np.isnan(want))
        assert same.all(), b
