"""float32 arithmetic as PyTorch's compiled CPU kernels do it, where NumPy has no twin.

GCC contracts `a * b + c` into one fused multiply-add in PyTorch's AVX2/AVX512 kernels
(linspace, arange): the exact a*b + c, rounded once to float32.
"""
import numpy as np


def fma32(a, b, c):
    """float32 arrays: a*b + c rounded once to float32 (a, b, c broadcast together).

    a*b is exact in float64 (24 + 24 significant bits); the sum with c is split into its
    float64 rounding and the exact error (TwoSum). Rounding the float64 sum to float32 is
    then right unless that sum lies exactly half-way between two float32 values while the
    error is not zero: there the error decides the direction.
    """
    p = np.asarray(a, np.float64) * np.asarray(b, np.float64)
    c = np.asarray(c, np.float64)
    s = p + c
    bp = s - c
    err = (p - bp) + (c - (s - bp))          # TwoSum: p + c == s + err exactly
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
