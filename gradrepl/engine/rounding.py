"""float32 arithmetic as PyTorch's compiled CPU kernels do it, where NumPy has no twin.

GCC contracts `a * b + c` into one fused multiply-add in PyTorch's AVX2/AVX512 kernels
(linspace, arange): the exact a*b + c, rounded once to float32.
"""
import numpy as np


def fma32(a, b, c):
    """float32 arrays: a*b + c rounded once to float32 (a, b, c broadcast together).

    a*b is exact in float64 (24 + 24 significant bits) and so is rounding the float64 sum
    to float32, except where that sum lies exactly half-way between two float32 values (its
    low 29 bits are 1 followed by zeros) or below float32's normal range: only there is the
    rounding error of the float64 sum needed (_exact).
    """
    s = np.add(np.multiply(a, b, dtype=np.float64), c, dtype=np.float64)
    if s.ndim == 0:
        return _exact_one(float(a), float(b), float(c))
    r = s.astype(np.float32)
    doubtful = ((s.view(np.int64) & 0x1FFFFFFF) == 0x10000000) | (np.abs(s) < 1.1754943508222875e-38)
    if doubtful.any():
        a, b, c = np.broadcast_arrays(a, b, c)
        a, b, c = a[doubtful], b[doubtful], c[doubtful]
        if a.size > 8:
            r[doubtful] = _exact(a, b, c)
        else:   # the usual few: one by one, without the array machinery's fixed cost
            r[doubtful] = [_exact_one(float(x), float(y), float(z)) for x, y, z in zip(a, b, c)]
    return r


def _exact_one(a, b, c):
    """_exact for one element (Python floats holding float32 values)."""
    p = a * b
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


def _exact(a, b, c):
    """fma32 through the exact error of the float64 sum (TwoSum): rounding the float64 sum to
    float32 is right unless it lies exactly half-way between two float32 values while the
    error is not zero; there the error decides the direction."""
    p = np.asarray(a, np.float64) * np.asarray(b, np.float64)
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


def fma64(a, b, c):
    """float64 arrays: a*b + c rounded once (Dekker's exact product, then a TwoSum with c);
    what a contracted `start + step * idx` computes in double (arange's kernel)."""
    a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
    p = a * b
    split = 134217729.0                      # 2**27 + 1: Veltkamp's split into halves
    ah = a * split
    ah = ah - (ah - a)
    al = a - ah
    bh = b * split
    bh = bh - (bh - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl   # a*b == p + e exactly
    s = p + c
    bp = s - p
    t = (p - (s - bp)) + (c - bp)            # p + c == s + t exactly
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
