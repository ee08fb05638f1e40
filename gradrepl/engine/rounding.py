"""float32 arithmetic as PyTorch's compiled CPU kernels do it, where NumPy has no twin.

GCC contracts `a * b + c` into one fused multiply-add in PyTorch's AVX2/AVX512 kernels
(linspace, arange): the exact a*b + c, rounded once to float32.
"""
import numpy as np

_min = np.minimum.reduce
_SHIFT, _ONE = np.uint64(35), np.uint64(1)
_INT64_MIN = np.iinfo(np.int64).min
_TINY_LESS_ONE = np.float64(1.1754943508222875e-38).view(np.uint64) - _ONE


def fma32(a, b, c):
    """float32 arrays: a*b + c rounded once to float32 (a, b, c broadcast together).

    a*b is exact in float64 (24 + 24 significant bits) and so is rounding the float64 sum
    to float32, except where that sum lies exactly half-way between two float32 values (its
    low 29 bits are 1 followed by zeros) or below float32's normal range: only there is the
    rounding error of the float64 sum needed (_exact).
    """
    prod = np.multiply(a, b, dtype=np.float64)
    s = np.add(prod, c, dtype=np.float64)
    if s.ndim == 0:
        return _exact_one(float(a) * float(b), float(c))
    r = s.astype(np.float32)
    # the common case, nothing doubtful, in few NumPy calls: |s|'s low 29 bits moved to the
    # top are int64's minimum exactly on a half-way point; |s|'s bits less one (zero wraps
    # around) are below those of float32's smallest normal exactly when 0 < |s| < it (a zero
    # sum is exact, so zeros are not doubtful)
    mag = np.abs(s).view(np.uint64)
    top = np.left_shift(mag, _SHIFT).view(np.int64)
    half = _min(top, axis=None) == _INT64_MIN
    np.subtract(mag, _ONE, out=mag)
    tiny = _min(mag, axis=None) < _TINY_LESS_ONE
    if half or tiny:
        if half:
            doubtful = top == _INT64_MIN
            if tiny:
                doubtful |= mag < _TINY_LESS_ONE
        else:
            doubtful = mag < _TINY_LESS_ONE
        # a*b is exact in float64: the doubtful sums are redone from it and c
        at = np.flatnonzero(doubtful)
        prod = (prod if prod.shape == s.shape else np.broadcast_to(prod, s.shape)).ravel()[at]
        c = (np.asarray(c) if np.shape(c) == s.shape else np.broadcast_to(c, s.shape)).ravel()[at]
        if at.size > 8:
            np.put(r, at, _exact(prod, c))
        else:   # the usual few: one by one, without the array machinery's fixed cost
            np.put(r, at, [_exact_one(p, z) for p, z in zip(prod.tolist(), c.tolist())])
    return r


def _exact_one(p, c):
    """_exact for one element: p the exact float64 product, c a float32 value (Python floats)."""
    s = p + c
    bp = s - c
    err = (p - bp) + (c - (s - bp))
    r = np.float32(s)
    if err == 0 or float(r) == s:
        return r
    other = np.nextafter(r, np.float32(np.inf) if s > float(r) else np.float32(-np.inf))
    if (float(r) + float(other)) * 0.5 != s:
        return r
    return max(r, other) if err > 0 else min(r, other)


def _exact(p, c):
    """fma32 through the exact error of the float64 sum p + c (p = a*b, exact in float64; TwoSum):
    rounding the float64 sum to float32 is right unless it lies exactly half-way between two
    float32 values while the error is not zero; there the error decides the direction."""
    c = np.asarray(c, np.float64)
    s = p + c
    bp = s - c
    err = (p - bp) + (c - (s - bp))          # TwoSum: p + c == s + err exactly
    with np.errstate(invalid="ignore"):
        r = s.astype(np.float32)
        r64 = r.astype(np.float64)
        toward = np.where(s > r64, np.inf, -np.inf).astype(np.float32)
        other = np.nextafter(r, toward)
        halfway = (s != r64) & ((r64 + other.astype(np.float64)) * 0.5 == s) & (err != 0)
    if halfway.any():
        # the exact value lies beyond the midpoint on err's side
        up = np.where(err > 0, np.maximum(r, other), np.minimum(r, other))
        r = np.where(halfway, up, r)
    return r


_SPLIT = 134217729.0    # 2**27 + 1: Veltkamp's split of a float64 into two 26-bit halves


def fma64(a, b, c):
    """float64 arrays: a*b + c as one fused multiply-add (PyTorch's kernels compiled with FMA),
    through error-free transformations: a*b = p + e exactly (Dekker), p + c = s + t exactly
    (TwoSum), then s + (t + e), which is a*b + c rounded once but for rare double roundings.
    For moderate magnitudes (the split overflows above about 1e300)."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    c = np.asarray(c, np.float64)
    p = a * b
    ta = _SPLIT * a
    ah = ta - (ta - a)
    al = a - ah
    tb = _SPLIT * b
    bh = tb - (tb - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bp = s - c
    t = (p - bp) + (c - (s - bp))
    return s + (t + e)


def arange_values(start, step, n, dtype):
    """PyTorch's CPU arange of n float32/float64 values: blocks of two SIMD vectors (AVX2: 8
    float32 or 4 float64 lanes) start at float(fma(step, i, start)) and add lane * step to
    that in double, each rounded once to the dtype; the elements after the last whole
    block are fma(step, i, start) one by one."""
    lanes = 32 // np.dtype(dtype).itemsize
    idx = np.arange(n, dtype=np.float64)
    whole = n // (2 * lanes) * (2 * lanes)
    out = np.empty(n, dtype)
    if whole:
        i = idx[:whole]
        lane = i % lanes
        base = fma64(step, i - lane, start).astype(dtype).astype(np.float64)
        out[:whole] = fma64(lane, step, base)
    out[whole:] = fma64(step, idx[whole:], start)
    return out
