"""float32 kernels computed as PyTorch 2.13's CPU kernels compute them, bit for bit.

PyTorch's softmax, log_softmax, sigmoid and the cross-entropy backward run on its own
vectorised code (Vectorized<float>: 16 lanes on AVX512, 8 on AVX2; engine/cpu.py says which
this machine runs), whose exp and log are Sleef's
`Sleef_expf16_u10` and `Sleef_logf16_u10`. expf and logf below follow Sleef's algorithms
(src/libm/sleefsimdsp.c, xexpf and the AVX512F branch of xlogf_u1; Sleef is
Copyright Naoki Shibata and contributors, distributed under the Boost Software License 1.0)
step by step in float32, each fused multiply-add rounded once (rounding.fma32).

The plain element-wise functions (torch.exp, sin, log, tanh, sqrt, ...) are not here: PyTorch
sends contiguous float32 tensors through Intel MKL's VML, whose code is not public; the
float64-then-float32 results of ops/elementwise.py match it for most inputs (the README
has the measured rates).

expf, logf, row_sums, the last-dim softmax kernels and tanh_backward run in the optional C
module _kernels (built from _kernels.c at install; a test checks it against the NumPy code
here bit for bit) when it is there and the arrays are float32; the NumPy code is the
reference and the fallback.
"""
import ctypes
import math

import numpy as np

from gradrepl.engine import cpu
from gradrepl.engine.rounding import fma32
from gradrepl.engine.rounding import fma64 as _fma64
# at::get_num_threads() (torch.set_num_threads sets it): element-wise kernels above GRAIN
# elements run in one part per thread, and some results depend on where the parts begin
from gradrepl.engine.summation import THREADS

try:
    from gradrepl.engine import _kernels as _C
except ImportError:     # not built (no C compiler at install): the NumPy code below
    _C = None

f32 = np.float32
LANES = 16      # Vectorized<float>'s lanes: set from the CPU capability just below


def _set_lanes(name):
    global LANES
    LANES = cpu.LANES[name]


cpu.follow(_set_lanes)
GRAIN = 32768   # at::internal::GRAIN_SIZE

_R_LN2 = f32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2U, _L2L = f32(0.693145751953125), f32(1.428606765330187045e-06)
_EXP_POLY = tuple(f32(c) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                                   0.00833336077630519866943359, 0.0416664853692054748535156,
                                   0.166666671633720397949219, 0.5))
_L2U64, _L2L64 = float(_L2U), float(_L2L)
_L2_64 = _L2U64 + _L2L64     # exact: 43 significant bits
_EXP_POLY64 = tuple(float(c) for c in _EXP_POLY)
_LN2_HI, _LN2_LO = f32(0.69314718246459960938), f32(-1.904654323148236017e-09)
_LN2_HI64, _LN2_LO64 = float(_LN2_HI), float(_LN2_LO)
_R075 = f32(1.0 / 0.75)
_LOG_POLY = (f32(0.3027294874), f32(0.3996108174), f32(0.6666694880))
_LOG_POLY64 = tuple(float(c) for c in _LOG_POLY)


def _pow2i(q):
    """2**q as float32 for int32 q (the exponent field built directly, as Sleef's vpow2i)."""
    return ((q + 127) << 23).astype(np.int32).view(f32)


def expf(d):
    """Sleef_expf16_u10 of a float32 array."""
    d = np.asarray(d, f32)
    if _C is None:
        return _expf_np(d)
    out = np.empty(d.shape, f32)
    if _C.expf(d if d.flags.c_contiguous else d.copy(), out):    # a NaN: NumPy's NaN bits
        return _expf_np(d)
    return out


def _expf_np(d):
    """expf in NumPy.

    The fast path holds float32 values in float64 arrays and rounds each fused step once.
    The reduction s = d - q*L2U - q*L2L is exact there (q*L2U and q*L2L have few bits; the
    first step's result is a float32 already); the polynomial steps are checked for
    half-way sums at the end (_redo). Below 2**-75, s*s is 0 in float32 and the last step
    exact, so tiny inputs need no care; NaN and |d| > 104 take _expf with fma32."""
    if d.size > _CHUNK:
        return _chunked(_expf_np, d)
    if not d.size:
        return d.copy()
    top = _max(np.abs(d), axis=None)
    if not (top <= 104):
        odd = ~(np.abs(d) <= 104)
        out = _expf_np(np.where(odd, f32(0), d))
        out[odd] = _expf(d[odd], fma32)
        return out
    # few NumPy calls (small arrays cost their calls, not their arithmetic): the float64
    # sums of the fused steps go straight into the rows that _redo checks
    q = np.rint(d * _R_LN2, dtype=np.float64)
    sums = np.empty((len(_EXP_POLY),) + d.shape)
    # q*L2U + q*L2L is q*(L2U + L2L) exactly (43 bits times q's 8), so d less it rounds once,
    # as d - q*L2U (exact) - q*L2L does
    t = np.multiply(q, -_L2_64)
    t += d
    s = t.astype(f32)
    s64 = t
    s64[...] = s
    row = np.multiply(s64, _EXP_POLY64[0], out=sums[0])
    for k, c in enumerate(_EXP_POLY64[1:], 1):
        if k > 1:
            row = np.multiply(s64, u, out=sums[k - 1])
        row += c
        u = row.astype(f32)
    row = np.multiply(s * s, u, out=sums[-1], dtype=np.float64)
    row += s64
    out = row.astype(f32)
    out += f32(1)
    qi = q.astype(np.int32)
    if top <= 87:
        # |q| <= 126: 2**q is a normal float32, built from its exponent bits, and the product
        # rounds once, as ldexp does (which NumPy calls element by element)
        qi += 127
        qi <<= 23
        out *= qi.view(f32)
    elif top > 88:      # below, the result is under 2**128: ldexp cannot overflow
        with np.errstate(over="ignore"):
            out = np.ldexp(out, qi)
    else:
        out = np.ldexp(out, qi)
    return _redo(out, sums, _expf, d)


def logf(d):
    """Sleef_logf16_u10 (xlogf_u1, AVX512F branch: getexp/getmant, double-float arithmetic)."""
    d = np.asarray(d, f32)
    if _C is None:
        return _logf_np(d)
    out = np.empty(d.shape, f32)
    if _C.logf(d if d.flags.c_contiguous else d.copy(), out):
        return _logf_np(d)
    return out


def _logf_np(d):
    """logf in NumPy. Fast path as expf's: the fused steps that are exact in float64 (a product's rounding
    error, sums of few-bit terms) are rounded once; the others are checked (_redo)."""
    if d.size > _CHUNK:
        return _chunked(_logf_np, d)
    if not d.size:
        return d.copy()
    if not (_min(d, axis=None) > 0 and _max(d, axis=None) < _LOG_BIG):   # zero, negative, NaN, infinity, huge
        odd = ~(d > 0) | ~(d < _LOG_BIG)
        out = _logf_np(np.where(odd, f32(1), d))
        out[odd] = _logf(d[odd], fma32)
        return out
    scaled = d * _R075
    _, ex = np.frexp(scaled)
    ex -= 1
    if _max(scaled, axis=None) == np.inf:       # d above 0.75 * 2**128: vgetexp's inf is 128
        ex[scaled == np.inf] = 128
    e = ex.astype(f32)
    fr, _ = np.frexp(d)
    m = np.where(fr >= f32(0.75), fr, fr * f32(2))
    e64 = e.astype(np.float64)
    sx = _LN2_HI * e
    sy = _LN2_HI64 * e64
    sy -= sx
    sy += np.multiply(_LN2_LO64, e64, out=e64)
    sy = sy.astype(f32)
    # m is in [0.75, 1.5): m - 1 is exact (dfadd2(-1, m) is (m - 1, +0)), and 1 + m is exact
    # in float64 (dfadd2(1, m)'s error is that sum less its float32 rounding)
    nx = m - f32(1)
    sum64 = np.add(m, 1.0, dtype=np.float64)
    dx = sum64.astype(f32)
    dy = sum64
    dy -= dx
    t = f32(1) / dx
    xx = nx * t
    t64, xx64 = t.astype(np.float64), xx.astype(np.float64)
    u = np.multiply(t64, nx)
    u -= xx64
    u = u.astype(f32)
    inner = np.multiply(dx, t64)
    np.subtract(1, inner, out=inner)
    inner = inner.astype(f32)
    # dy is 0 or +-2**-23, so dy*t is a float32 value and this is the sum of two: a float64
    # sum of two float32 values that lies on a float32 half-way point is exact (a true tie)
    np.negative(dy, out=dy)
    dy *= t64
    dy += inner
    v = dy.astype(f32)
    sums = np.empty((3,) + d.shape)
    row = np.multiply(xx64, v, out=sums[0])     # (the first sum, ny * t + u, is u: ny is +0)
    row += u
    xy = row.astype(f32)
    x2 = xx * xx
    x2_64 = x2.astype(np.float64)
    row = np.multiply(x2_64, _LOG_POLY64[0], out=sums[1])
    row += _LOG_POLY64[1]
    row = np.multiply(x2_64, row.astype(f32), out=sums[2])
    row += _LOG_POLY64[2]
    p = row.astype(f32)
    yx = xx * f32(2)
    xy *= f32(2)
    hi = sx + yx
    lo = sx - hi
    lo += yx
    lo += sy
    lo += xy
    w = x2 * xx
    w *= p
    hi2 = hi + w
    hi -= hi2
    hi += w
    hi += lo
    hi2 += hi
    return _redo(hi2, sums, _logf, d)


_MID_SHIFT = np.uint64(35)          # 64 - 29: a float64's bits below float32's precision
_INT64_MIN = np.iinfo(np.int64).min
_max, _min = np.maximum.reduce, np.minimum.reduce
_CHUNK = 1 << 13        # elements per pass: the float64 temporaries stay in the caches (~400 KB)


def _chunked(fn, d):
    flat = d.ravel()
    out = np.empty(flat.shape, f32)
    for i in range(0, flat.size, _CHUNK):
        out[i:i + _CHUNK] = fn(flat[i:i + _CHUNK])
    return out.reshape(d.shape)


def _redo(out, sums, fn, d):
    """out with the elements redone by fn(d, fma32) where one of the float64 sums of the fast
    path lies on a float32 half-way point (rounding it again may be one off there).

    sums: a float64 array of the sums (one row each) or a list of them; it is overwritten."""
    if isinstance(sums, list):
        sums = np.stack(sums)
    # the low 29 bits moved to the top: 1 followed by zeros there is int64's minimum
    bits = sums.view(np.uint64)
    np.left_shift(bits, _MID_SHIFT, out=bits)
    bits = bits.view(np.int64)
    if _min(bits, axis=None) == _INT64_MIN:
        redo = np.logical_or.reduce(bits == _INT64_MIN, axis=0)
        out[redo] = fn(d[redo], fma32)
    return out


def _expf(d, fma32):
    with np.errstate(invalid="ignore", over="ignore"):
        q = np.rint(np.clip(d * _R_LN2, f32(-300), f32(300)))      # cvtps_epi32: to nearest even
        q[np.isnan(q)] = 0
        qi = q.astype(np.int32)
        s = fma32(q, -_L2U, d)
        s = fma32(q, -_L2L, s)
        u = np.full(d.shape, _EXP_POLY[0], f32)
        for c in _EXP_POLY[1:]:
            u = fma32(u, s, c)
        u = f32(1) + fma32(s * s, u, s)
        half = qi >> 1
        u = u * _pow2i(half) * _pow2i(qi - half)
        u[d < -104] = 0
        u[d > 100] = np.inf
    return u


def _two_sum(x, y):
    """Sleef's dfadd2: s = x + y and the rounding error of that sum."""
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


_LOG_BIG = f32(2.5e38)      # above, d / 0.75 overflows: vgetexp's infinity is taken as 128


def _logf(d, fma32):
    with np.errstate(all="ignore"):
        scaled = d * f32(1.0 / 0.75)
        _, ex = np.frexp(scaled)
        e = (ex - 1).astype(f32)                                  # vgetexp: floor(log2 |d / 0.75|)
        e[np.isposinf(scaled) & np.isfinite(d)] = f32(128)        # (inf is 128 there)
        fr, _ = np.frexp(d)
        m = np.where(fr >= f32(0.75), fr, fr * f32(2))            # vgetmant into [0.75, 1.5)
        sx = _LN2_HI * e                                          # dfmul((ln2 hi, lo), e)
        sy = fma32(_LN2_LO, e, fma32(_LN2_HI, e, -sx))
        nx, ny = _two_sum(f32(-1), m)
        dx, dy = _two_sum(f32(1), m)
        t = f32(1) / dx                                           # dfdiv(n, d)
        xx = nx * t
        u = fma32(t, nx, -xx)
        v = fma32(-dy, t, fma32(-dx, t, f32(1)))
        xy = fma32(xx, v, fma32(ny, t, u))
        x2 = xx * xx
        p = fma32(fma32(np.full(d.shape, _LOG_POLY[0], f32), x2, _LOG_POLY[1]), x2, _LOG_POLY[2])
        yx, yy = xx * f32(2), xy * f32(2)                          # dfadd(s, dfscale(x, 2))
        hi = sx + yx
        lo = (((sx - hi) + yx) + sy) + yy
        w = (x2 * xx) * p                                         # dfadd(s, x^3 * p)
        hi2 = hi + w
        lo = ((hi - hi2) + w) + lo
        r = hi2 + lo
        r[d == 0] = -np.inf                                       # vfixup's special values
        r[np.isposinf(d)] = np.inf
        r[(d < 0) | np.isnan(d)] = np.nan
    return r


def _add_moments(m0_add, m1_add, m2_add, m0, m1, m2):
    """AddMoments (moments_utils.h) on float32 (or float64) values: Chan's update of (count,
    mean, M2) with m1 + c * delta and m2_add + delta^2 c * m0 fused, as PyTorch's scalar code
    runs it."""
    dt = m1_add.dtype.type
    fma = fma32 if dt is f32 else _fma64
    n = m0 + m0_add
    c = dt(0) if n == 0 else dt(m0_add) / dt(n)
    delta = m1_add - m1
    m1 = fma(np.full(delta.shape, c, dt), delta, m1)
    m2 = m2 + fma(delta * delta * c, np.full(delta.shape, dt(m0), dt), m2_add)
    return n, m1, m2


def _add_moments_vec(m0_add, m1_add, m2_add, m0, m1, m2):
    """AddMomentsVec: m1 + c * delta unfused, and m2 as one fused multiply-add
    delta * (delta * c * m0) + (m2 + m2_add) (the order that gives PyTorch's bits, measured
    on rows of 264 to 8192 elements, where chunks merge in the binary stack)."""
    dt = m1_add.dtype.type
    fma = fma32 if dt is f32 else _fma64
    n = m0 + m0_add
    c = dt(0) if n == 0 else dt(m0_add) / dt(n)
    delta = m1_add - m1
    m1 = m1 + c * delta
    m2 = fma(delta, delta * c * dt(m0), m2 + m2_add)
    return n, m1, m2


def rowwise_moments(x):
    """Mean and biased variance of each row of a 2-D float32 (or float64) array as PyTorch's
    layer_norm computes them (RowwiseMoments, moments_utils.h, at 8 float32 / 4 float64
    lanes: layer_norm's kernel is registered with REGISTER_DISPATCH, so AVX512 machines run
    its AVX2 build): Welford over chunks of 16 vectors (fused updates), the chunks combined
    in a binary stack (_add_moments_vec), the leftover columns by scalar Welford (unfused),
    then the lanes one by one (_add_moments)."""
    dt = x.dtype.type
    fma = fma32 if dt is f32 else _fma64
    rows, cols = x.shape
    lanes_, chunk = (8 if dt is f32 else 4), 16
    n = cols // lanes_
    chunks = -(-n // chunk)
    depth = max(1, (chunks - 1).bit_length())
    zero = np.zeros((rows, lanes_), dt)
    stack = [(0, zero, zero) for _ in range(depth)]
    recip = [dt(1) / dt(i + 1) for i in range(chunk)]
    for i in range(chunks):
        count = min(chunk, n - i * chunk)
        m1 = m2 = zero
        for j in range(count):
            col = (i * chunk + j) * lanes_
            v = x[:, col:col + lanes_]
            delta = v - m1
            m1 = fma(delta, np.full(delta.shape, recip[j], dt), m1)
            m2 = fma(delta, v - m1, m2)
        stack[0] = _add_moments_vec(count, m1, m2, *stack[0])
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:
            stack[j] = _add_moments_vec(*stack[j - 1], *stack[j])
            stack[j - 1] = (0, zero, zero)
            mask >>= 1
            j += 1
    for i in range(1, depth):
        stack[0] = _add_moments_vec(*stack[i], *stack[0])
    lane_m1, lane_m2 = stack[0][1], stack[0][2]
    count, m1, m2 = 0, np.zeros(rows, dt), np.zeros(rows, dt)
    for k in range(n * lanes_, cols):
        v = x[:, k]
        delta = v - m1
        count += 1
        m1 = m1 + delta / dt(count)
        m2 = m2 + delta * (v - m1)
    for lane in range(lanes_):
        count, m1, m2 = _add_moments(n, lane_m1[:, lane], lane_m2[:, lane], count, m1, m2)
    return m1, m2 / dt(cols)


def _lane_sums(e, lanes, tail=None):
    """(row sums, True) for rows narrower than one vector of `lanes`, added left to right; else
    (lane sums, False): the vectors added lane by lane, a partial last vector into the first
    lanes (tail(those lanes, its first column) computes them instead where given)."""
    cols = e.shape[1]
    if cols < lanes:
        acc = e[:, 0].copy()
        for i in range(1, cols):
            acc += e[:, i]
        return acc, True
    acc = e[:, :lanes].copy()
    k = lanes
    while k + lanes <= cols:
        acc += e[:, k:k + lanes]
        k += lanes
    if k < cols and tail is not None:
        acc[:, :cols - k] = tail(acc[:, :cols - k], k)
    elif k < cols:
        acc[:, :cols - k] += e[:, k:]
    return acc, False


def row_sums(e, tail=None):
    """Each row of a 2-D float32 array summed as vec::reduce_all(+) does: rows narrower than
    one vector left to right; wider ones in LANES lane sums (a partial last vector adds into
    its first lanes: tail(those lanes, its first column) computes them instead where given),
    then the lanes folded in halves (on AVX512 8, 4, 2, 1)."""
    acc, done = _lane_sums(e, LANES, tail)
    if done:
        return acc
    half = LANES // 2
    while half > 1:
        acc = acc[:, :half] + acc[:, half:]
        half //= 2
    return acc[:, 0] + acc[:, 1]


def row_sums64(e):
    """Each row of a 2-D float64 array summed as vec::reduce_all(+) / map_reduce_all do for
    Vectorized<double> (LANES // 2 lanes: 4 on AVX2, 8 on AVX512): rows narrower than one
    vector left to right; wider ones in lane sums (a partial last vector adds into its first
    lanes), then the lanes added left to right (no shuffle fold for double)."""
    lanes = LANES // 2
    acc, done = _lane_sums(e, lanes)
    if done:
        return acc
    total = acc[:, 0].copy()
    for i in range(1, lanes):
        total += acc[:, i]
    return total


def _rows(x):
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1])


def _rows_c(kernel, *arrays):
    """A C row kernel over float32 arrays of one shape, or None when _C cannot take them or
    the result holds a NaN (NumPy's code then gives NumPy's NaN bits)."""
    shape = arrays[0].shape
    if _C is None or not shape or not shape[-1] or any(a.dtype != f32 for a in arrays):
        return None
    out = np.empty(shape, f32)
    if kernel(out.size // shape[-1], shape[-1], LANES, *(np.ascontiguousarray(a) for a in arrays), out):
        return None
    return out


def softmax_lastdim(x):
    """softmax over the last dim of a float32 array (_vec_softmax_lastdim)."""
    out = _rows_c(_C and _C.softmax, x)
    if out is not None:
        return out
    rows = _rows(x)
    m = np.maximum.reduce(rows, axis=1, keepdims=True)
    e = expf(rows - m)
    inv = f32(1) / row_sums(e)
    return (e * inv[:, None]).reshape(x.shape)


def log_softmax_lastdim(x):
    """log_softmax over the last dim of a float32 array (_vec_log_softmax_lastdim)."""
    out = _rows_c(_C and _C.log_softmax, x)
    if out is not None:
        return out
    rows = _rows(x)
    m = np.maximum.reduce(rows, axis=1, keepdims=True)
    shifted = rows - m
    out = shifted - logf(row_sums(expf(shifted)))[:, None]
    return out.reshape(x.shape)


def softmax_backward_lastdim(grad, out):
    """grad of softmax over the last dim: (grad - sum(grad * out)) * out. On AVX2 one row of
    more than a vector is summed by vec::map2_reduce_all, whose partial last vector's products
    GCC fuses into the lane sums."""
    g, y = _rows(grad), _rows(out)
    fused = LANES == 8 and g.shape[0] == 1
    if not fused:
        r = _rows_c(_C and _C.softmax_backward, grad, out)
        if r is not None:
            return r
    s = row_sums(g * y, (lambda acc, k: fma32(g[:, k:], y[:, k:], acc)) if fused else None)
    return ((g - s[:, None]) * y).reshape(out.shape)


def log_softmax_backward_lastdim(grad, out):
    """grad of log_softmax over the last dim: grad - exp(out) * sum(grad), the product and
    the difference fused into one multiply-add as GCC compiles PyTorch's kernel."""
    r = _rows_c(_C and _C.log_softmax_backward, grad, out)
    if r is not None:
        return r
    g, y = _rows(grad), _rows(out)
    s = row_sums(g)
    return fma32(-expf(y), s[:, None], g).reshape(out.shape)


def tanh_backward(grad, out):
    """grad * (1 - out * out) with 1 - out*out fused (PyTorch's tanh_backward kernel).

    fma32(-out, out, 1) in fewer calls: for 1/8 <= |out| <= 1, out*out is a multiple of
    2**-52, so 1 - out*out is exact in float64 and rounding it to float32 is the fused result, even
    on a half-way point (the many near tanh's saturation); only smaller outputs whose float64
    sum lies half-way are redone by fma32."""
    y = np.asarray(out)
    if (_C is not None and y.ndim and y.shape == grad.shape and y.dtype == grad.dtype == f32
            and y.flags.c_contiguous and grad.flags.c_contiguous):
        r = np.empty(y.shape, f32)
        if not _C.tanh_backward(grad, y, r):
            return r
    s = np.multiply(y, y, dtype=np.float64)
    if s.ndim == 0:
        return grad * fma32(-y, y, f32(1))
    np.negative(s, out=s)           # -(y*y) + 1, as fma32's (-y)*y + 1 (a NaN's sign too)
    s += 1.0
    r = s.astype(f32)
    top = np.left_shift(s.view(np.uint64), _MID_SHIFT).view(np.int64)
    if _min(top, axis=None) == _INT64_MIN:
        mag = np.abs(y)
        redo = (top == _INT64_MIN) & ~((mag >= f32(0.125)) & (mag <= f32(1)))
        if redo.any():
            r[redo] = fma32(-y[redo], y[redo], f32(1))
    return grad * r


def body_and_tail(x, vector, scalar, grain=GRAIN):
    """_body_and_tail for a float32 or float64 array (Vectorized<double> holds half the lanes)."""
    return _body_and_tail(x, vector, scalar, grain)


def _lanes(dtype):
    """Vectorized<T>::size() for float32 (LANES) and float64 (half as many)."""
    return LANES // 2 if dtype == np.float64 else LANES


def _body_and_tail(x, vector, scalar, grain=GRAIN):
    """An element-wise cpu_kernel_vec: `vector` over the leading multiple of 32 elements in
    memory order (two Vectorized<float> per step), `scalar` over the rest; a non-contiguous
    array all through `scalar`. Above `grain` elements (TensorIterator's GRAIN_SIZE, or the
    kernel's own) at::parallel_for splits the loop into one part per thread
    (THREADS["n"], torch.get_num_threads()), each with its own scalar tail."""
    if not (x.flags.c_contiguous or x.flags.f_contiguous):
        return scalar(x)
    flat = x.ravel(order="K")
    n = flat.size
    threads = THREADS["n"]
    if n > grain and threads > 1:
        parts = min(threads, -(-n // grain))
        step = -(-n // parts)
    else:
        step = max(n, 1)
    pieces = []
    lanes = _lanes(x.dtype)
    for start in range(0, n, step):
        seg = flat[start:start + step]
        body = seg.size - seg.size % (2 * lanes)
        if body:
            pieces.append(vector(seg[:body]))
        if body < seg.size:
            pieces.append(scalar(seg[body:]))
    if not pieces:
        return np.empty(x.shape, x.dtype)
    out = pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
    return out.reshape(x.shape, order="F" if x.flags.f_contiguous and not x.flags.c_contiguous else "C")


# 2**(i/32) rounded to float64, as bit patterns less i << 47: glibc's exp2f_data table
# (sysdeps/ieee754/flt-32/e_exp2f_data.c), written out as glibc writes it.
_GLIBC_T = np.array([
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540], np.uint64)
_GLIBC_INVLN2N = float.fromhex("0x1.71547652b82fep+0") * 32
_GLIBC_SHIFT = float.fromhex("0x1.8p+52")
_GLIBC_C = (float.fromhex("0x1.c6af84b912394p-5") / 32 ** 3, float.fromhex("0x1.ebfce50fac4f3p-3") / 32 ** 2,
            float.fromhex("0x1.62e42ff0c52d6p-1") / 32)


def _exp_glibc(x):
    """std::exp of float32 values: glibc's expf (Szabolcs Nagy's, from Arm's optimized-routines,
    MIT licence): a 32-entry table of 2**(i/32) and a cubic in float64, rounded once to float32.
    (glibc's FMA build fuses the cubic's steps: that moves the float64 value by ~2**-53, which
    can change the float32 result only in the rarest near-ties.)"""
    with np.errstate(over="ignore", invalid="ignore"):
        xd = x.astype(np.float64)
        z = _GLIBC_INVLN2N * xd
        big = ~(np.abs(xd) < 104)                 # overflow, underflow, inf, nan: np.exp agrees there
        z[big] = 0
        kd = z + _GLIBC_SHIFT
        ki = kd.view(np.uint64)
        r = z - (kd - _GLIBC_SHIFT)
        s = (_GLIBC_T[ki % np.uint64(32)] + (ki << np.uint64(47))).view(np.float64)
        y = (_GLIBC_C[0] * r + _GLIBC_C[1]) * (r * r) + (_GLIBC_C[2] * r + 1)
        out = (y * s).astype(f32)
        if big.any():
            out[big] = np.exp(xd[big]).astype(f32)
    return out


# glibc's logf (Szabolcs Nagy's, from Arm's optimized-routines, MIT licence): 16 subintervals
# of [0x3f330000, 2 * that) as (1/c, log c) in float64, written out as the library writes them
_GLIBC_LOGF_T = np.array([[float.fromhex(a), float.fromhex(b)] for a, b in (
    ("0x1.661ec79f8f3bep+0", "-0x1.57bf7808caadep-2"), ("0x1.571ed4aaf883dp+0", "-0x1.2bef0a7c06ddbp-2"),
    ("0x1.49539f0f010bp+0", "-0x1.01eae7f513a67p-2"), ("0x1.3c995b0b80385p+0", "-0x1.b31d8a68224e9p-3"),
    ("0x1.30d190c8864a5p+0", "-0x1.6574f0ac07758p-3"), ("0x1.25e227b0b8eap+0", "-0x1.1aa2bc79c81p-3"),
    ("0x1.1bb4a4a1a343fp+0", "-0x1.a4e76ce8c0e5ep-4"), ("0x1.12358f08ae5bap+0", "-0x1.1973c5a611cccp-4"),
    ("0x1.0953f419900a7p+0", "-0x1.252f438e10c1ep-5"), ("0x1p+0", "0x0p+0"),
    ("0x1.e608cfd9a47acp-1", "0x1.aa5aa5df25984p-5"), ("0x1.ca4b31f026aap-1", "0x1.c5e53aa362eb4p-4"),
    ("0x1.b2036576afce6p-1", "0x1.526e57720db08p-3"), ("0x1.9c2d163a1aa2dp-1", "0x1.bc2860d22477p-3"),
    ("0x1.886e6037841edp-1", "0x1.1058bc8a07ee1p-2"), ("0x1.767dcf5534862p-1", "0x1.4043057b6ee09p-2"))])
_GLIBC_LOGF_A = tuple(float.fromhex(c) for c in ("-0x1.00ea348b88334p-2", "0x1.5575b0be00b6ap-2", "-0x1.ffffef20a4123p-2"))
_GLIBC_LN2 = float.fromhex("0x1.62e42fefa39efp-1")


def _glibc_logf(x):
    """std::log of float32 values: glibc's logf, log(z/c) by a cubic in float64 plus log c and
    k*ln2 from the table, rounded once to float32 (checked against this machine's libm on
    millions of inputs, tests/engine/test_float_bits.py)."""
    x = np.asarray(x, f32)
    ix = x.view(np.uint32).astype(np.int64)
    with np.errstate(all="ignore"):
        sub = (ix > 0) & (ix < 0x00800000)          # subnormal: scaled up by 2**23 first
        if sub.any():
            ix = np.where(sub, (x * f32(2.0 ** 23)).view(np.uint32).astype(np.int64) - (23 << 23), ix)
        tmp = (ix - 0x3f330000) & 0xffffffff
        i = (tmp >> 19) % 16
        k = (((tmp ^ 0x80000000) - 0x80000000) >> 23).astype(np.float64)
        z = ((ix - (tmp & 0xff800000)) & 0xffffffff).astype(np.uint32).view(f32).astype(np.float64)
        r = z * _GLIBC_LOGF_T[i, 0] - 1
        y0 = _GLIBC_LOGF_T[i, 1] + k * _GLIBC_LN2
        r2 = r * r
        y = _GLIBC_LOGF_A[1] * r + _GLIBC_LOGF_A[2]
        y = _GLIBC_LOGF_A[0] * r2 + y
        out = np.array(y * r2 + (y0 + r), f32)       # an array even for a 0-d input
        out[x == 1] = 0
        out[x == 0] = -np.inf
        out[np.isposinf(x)] = np.inf
        out[(x < 0) | np.isnan(x)] = np.nan
    return out


_GLIBC_EXP2_C = tuple(float.fromhex(c) for c in ("0x1.c6af84b912394p-5", "0x1.ebfce50fac4f3p-3", "0x1.62e42ff0c52d6p-1"))
_GLIBC_EXP2_SHIFT = float.fromhex("0x1.8p+47")


def _glibc_exp2f(x):
    """std::exp2 of float32 values: glibc's exp2f (the expf table of 2**(i/32), a cubic in
    float64, rounded once)."""
    with np.errstate(over="ignore", invalid="ignore"):
        xd = np.asarray(x, f32).astype(np.float64)
        big = ~(np.abs(xd) < 128)
        z = np.where(big, 0.0, xd)
        kd = z + _GLIBC_EXP2_SHIFT
        ki = kd.view(np.uint64)
        r = z - (kd - _GLIBC_EXP2_SHIFT)
        s = (_GLIBC_T[ki % np.uint64(32)] + (ki << np.uint64(47))).view(np.float64)
        y = (_GLIBC_EXP2_C[0] * r + _GLIBC_EXP2_C[1]) * (r * r) + (_GLIBC_EXP2_C[2] * r + 1)
        out = (y * s).astype(f32)
        if big.any():       # beyond +-128: exact powers of two, inf, 0 or NaN (np.exp2 agrees)
            out[big] = np.exp2(xd[big]).astype(f32)
    return out


_EXP2_POLY = tuple(f32(c) for c in (0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1,
                                    0.2402264476e+0, 0.6931471825e+0))


def sleef_exp2f(d):
    """Sleef's xexp2f (u10, FMA build): 2**round(d) times a polynomial in the rest, in float32."""
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = np.where(np.abs(u) <= 200, u, 0).astype(np.int32)
        s = d - u
        p = np.full(d.shape, _EXP2_POLY[0], f32)
        for c in _EXP2_POLY[1:]:
            p = fma32(p, s, c)
        p = fma32(p, s, f32(1))
        half = q >> 1
        out = p * _pow2i(half) * _pow2i(q - half)
        out[d >= 128] = np.inf
        out[d < -150] = 0
    return out


def exp2(x):
    """torch.exp2 of float32: Sleef's exp2f in the vectorised body, glibc's exp2f in the tail."""
    return _body_and_tail(x, sleef_exp2f, _glibc_exp2f)


def sigmoid(x):
    """1 / (1 + exp(-x)) as PyTorch's sigmoid kernel: Sleef's exp in the vectorised body,
    glibc's exp in the scalar tail (float32 or float64)."""
    M = _math(x)
    one = M.t(1)
    with np.errstate(over="ignore"):
        return _body_and_tail(x, lambda v: one / (one + M.exp(M.t(0) - v)),
                              lambda v: one / (one + M.exp_tail(-v)))


def silu(x):
    """x / (1 + exp(-x)) as PyTorch's silu kernel (body and tail as sigmoid's)."""
    M = _math(x)
    one = M.t(1)
    with np.errstate(over="ignore"):
        return _body_and_tail(x, lambda v: v / (one + M.exp(-v)), lambda v: v / (one + M.exp_tail(-v)))


def nll_pick_sum(x, target):
    """nll_sum(x[i, target[i]] for each row i) of a 2-D float32 array and in-range int64
    class indices, one per row."""
    if _C is not None and x.dtype == f32 and target.dtype == np.int64 and x.shape[1]:
        loss = _C.nll_sum(x.shape[0], x.shape[1], np.ascontiguousarray(x), np.ascontiguousarray(target))
        if loss is not None:
            return f32(loss)
    return nll_sum(x[np.arange(target.shape[0]), target])


def nll_sum(picked):
    """The loss_partial_sums of nll_loss (LossNLL.cpp) over a batch with no ignored or
    weighted rows: 0 - picked[b] accumulated left to right on level 0, which flushes into the
    next level after b = 0 and every multiple of 16 (levels of 16: cascade_sum), and the 8
    levels added in order at the end."""
    levels = [f32(0)] * 8
    n = picked.shape[0]
    if n:
        # level 0's runs: [0, 1), then 16 elements at a time, each summed left to right in
        # one cumsum (a row each; the last run padded with -0.0, which changes no sum)
        runs = (n + 14) // 16
        padded = np.full(1 + 16 * runs, f32(-0.0))
        padded[:n] = picked
        ends = np.cumsum(padded[1:].reshape(runs, 16), axis=1)[:, -1]
        np.negative(ends, out=ends)
        last = 0
        for run in range(runs + 1):
            levels[0] = -picked[0] if run == 0 else ends[run - 1]
            if last % 16 == 0:                      # the run ended at a b that flushes
                for j in range(7):
                    if last & (15 << (4 * j)):
                        break
                    levels[j + 1] = f32(levels[j + 1] + levels[j])
                    levels[j] = f32(0)
            last = min(n - 1, last + 16)
    acc = f32(0)
    for v in levels:
        acc = f32(acc + v)
    return acc


# ---------------------------------------------------------------- pow (Sleef_powf16_u10)

def _df_add2(xx, xy, y):
    """dfadd2_vf2_vf2_vf: (xx, xy) + y."""
    s = xx + y
    v = s - xx
    return s, ((xx - (s - v)) + (y - v)) + xy


def _logkf(d, fma32):
    """Sleef's logkf (AVX512F branch): log(d) as a double-float (hi, lo), d > 0."""
    scaled = d * f32(1.0 / 0.75)
    _, ex = np.frexp(scaled)
    e = (ex - 1).astype(f32)                                  # vgetexp
    e[np.isposinf(scaled)] = f32(128)
    fr, _ = np.frexp(d)
    m = np.where(fr >= f32(0.75), fr, fr * f32(2))            # vgetmant into [0.75, 1.5)
    nx, ny = _two_sum(f32(-1), m)
    dx, dy = _two_sum(f32(1), m)
    t = f32(1) / dx                                           # dfdiv(n, d)
    xx = nx * t
    u = fma32(t, nx, -xx)
    v = fma32(-dy, t, fma32(-dx, t, f32(1)))
    xy = fma32(xx, v, fma32(ny, t, u))
    x2x = xx * xx                                             # dfsqu(x)
    x2y = fma32(xx + xx, xy, fma32(xx, xx, -x2x))
    p = fma32(fma32(np.full(d.shape, f32(0.240320354700088500976562), f32), x2x,
                    f32(0.285112679004669189453125)), x2x, f32(0.400007992982864379882812))
    sx = _LN2_HI * e                                          # dfmul((ln2 hi, lo), e)
    sy = fma32(_LN2_LO, e, fma32(_LN2_HI, e, -sx))
    hx = sx + xx * f32(2)                                     # dfadd(s, dfscale(x, 2))
    hy = (((sx - hx) + xx * f32(2)) + sy) + xy * f32(2)
    cx = x2x * xx                                             # dfmul(x2, x)
    cy = fma32(x2x, xy, fma32(x2y, xx, fma32(x2x, xx, -cx)))
    qx = x2x * p                                              # dfmul(x2, t)
    qy = fma32(x2y, p, fma32(x2x, p, -qx))
    ax = qx + f32(0.66666662693023681640625)                  # dfadd2(., c)
    av = ax - qx
    ay = ((qx - (ax - av)) + (f32(0.66666662693023681640625) - av)) + (qy + f32(3.69183861259614332084311e-09))
    bx = cx * ax                                              # dfmul(x2*x, .)
    by = fma32(cx, ay, fma32(cy, ax, fma32(cx, ax, -bx)))
    rx = hx + bx                                              # dfadd(s, .)
    ry = (((hx - rx) + bx) + hy) + by
    return rx, ry


def _expkf(dx, dy, fma32):
    """Sleef's expkf: exp of a double-float, rounded to float32."""
    q = np.rint(np.clip((dx + dy) * _R_LN2, f32(-300), f32(300)))   # cvtps_epi32: to nearest even
    sx, sy = _df_add2(dx, dy, q * -_L2U)
    sx, sy = _df_add2(sx, sy, q * -_L2L)
    s = sx + sy                                               # dfnormalize
    sy = (sx - s) + sy
    sx = s
    u = np.full(sx.shape, f32(0.00136324646882712841033936), f32)
    for c in (0.00836596917361021041870117, 0.0416710823774337768554688, 0.166665524244308471679688,
              0.499999850988388061523438):
        u = fma32(u, sx, f32(c))
    qqx = sx * sx                                             # dfsqu(s)
    qqy = fma32(sx + sx, sy, fma32(sx, sx, -qqx))
    mx = qqx * u                                              # dfmul(., u)
    my = fma32(qqy, u, fma32(qqx, u, -mx))
    tx = sx + mx                                              # dfadd(s, .)
    ty = (((sx - tx) + mx) + sy) + my
    wx = f32(1) + tx                                          # dfadd(1, t)
    wy = ((f32(1) - wx) + tx) + ty
    r = _vldexp(wx + wy, q.astype(np.int32))
    r[dx < -104] = 0
    return r


def _vldexp(x, q):
    """Sleef's vldexp_vf_vf_vi2: x times 2**q in five float32 products (four by a clamped
    power of two, one by the rest), each rounded: its subnormal results are Sleef's."""
    m = q >> 31
    m = (((m + q) >> 6) - m) << 4
    q = q - (m << 2)
    m = np.clip(m + 127, 0, 255)
    u = (m << 23).astype(np.int32).view(f32)
    with np.errstate(over="ignore", invalid="ignore"):
        return x * u * u * u * u * _pow2i(q)


def _powf_sleef(x, y):
    """Sleef_powf16_u10 (xpowf): exp(y * log|x|) in double-float steps, then its sign and
    special-value rules."""
    with np.errstate(all="ignore"):
        y = np.broadcast_to(np.asarray(y, f32), x.shape)
        ax = np.abs(x)
        lx, ly = _logkf(np.where(ax == 0, f32(1), ax), fma32)
        px = lx * y                                           # dfmul(log, y)
        py = fma32(ly, y, fma32(lx, y, -px))
        r = _expkf(px, py, fma32)
        r[np.isnan(r)] = np.inf
        yint = (np.trunc(y) == y) | (np.abs(y) > f32(1 << 24))
        yodd = yint & (np.abs(y) < f32(1 << 24)) & (np.fmod(np.trunc(np.where(np.abs(y) < f32(1 << 24), y, 0)), 2) != 0)
        r = r * np.where(x > 0, f32(1), np.where(yint, np.where(yodd, f32(-1), f32(1)), f32(np.nan)))
        efx = np.where(np.signbit(y), f32(1) - ax, ax - f32(1))     # vmulsign: flips with y's sign
        r = np.where(np.isinf(y), np.where(efx < 0, f32(0), np.where(efx == 0, f32(1), f32(np.inf))), r)
        zero_or_inf = np.isinf(x) | (x == 0)
        mag = np.where(np.signbit(y) ^ (x == 0), f32(0), f32(np.inf))
        r = np.where(zero_or_inf, np.copysign(mag, np.where(yodd, x, f32(1))), r)
        r = np.where(np.isnan(x) | np.isnan(y), f32(np.nan), r)
        r = np.where((y == 0) | (x == 1), f32(1), r)
    return r.astype(f32)


def pow_scalar(x, b):
    """float32 x ** b for an exponent PyTorch's pow kernel does not special-case: Sleef's
    powf of the exponent rounded to float32 in the vectorised body; in the tail
    std::pow(float, double), which takes the exponent as given and rounds once."""
    e = f32(b)
    return _body_and_tail(x, lambda v: _powf_sleef(v, e),
                          lambda v: np.power(v.astype(np.float64), float(b)).astype(f32))


# ---------------------------------------------------------------- expm1, log1p, sinh, cosh
# Sleef's xexpm1f, xsinhf, xcoshf (all three through expk2f: exp of a double-float as a
# double-float) and xlog1pf (AVX512F branch), step by step in float32 with each fused
# multiply-add rounded once; PyTorch's vectorised kernels call them as Sleef_*f16_u10.

def _df_mul_f(xx, xy, y):
    """dfmul_vf2_vf2_vf: (xx, xy) * y."""
    s = xx * y
    return s, fma32(xy, y, fma32(xx, y, -s))


def _df_mul(xx, xy, yx, yy):
    """dfmul_vf2_vf2_vf2."""
    s = xx * yx
    return s, fma32(xx, yy, fma32(xy, yx, fma32(xx, yx, -s)))


def _df_squ(xx, xy):
    """dfsqu_vf2_vf2."""
    s = xx * xx
    return s, fma32(xx + xx, xy, fma32(xx, xx, -s))


def _df_add2_df(xx, xy, yx, yy):
    """dfadd2_vf2_vf2_vf2."""
    s = xx + yx
    v = s - xx
    return s, ((xx - (s - v)) + (yx - v)) + (xy + yy)


def _df_rec(dx, dy):
    """dfrec_vf2_vf2: 1 / (dx, dy)."""
    s = f32(1) / dx
    return s, s * fma32(-dy, s, fma32(-dx, s, f32(1)))


def _ldexp2(d, q):
    """vldexp2_vf_vf_vi2: d * 2**(q >> 1) * 2**(q - (q >> 1))."""
    half = q >> 1
    return d * _pow2i(half) * _pow2i(q - half)


def _expk2f(dx):
    """Sleef's expk2f of (dx, 0): exp(dx) as a double-float."""
    q = np.rint((dx + f32(0)) * _R_LN2)
    q[~np.isfinite(q)] = 0
    qi = q.astype(np.int32)
    zero = np.zeros_like(dx)
    sx, sy = _df_add2(dx, zero, q * -_L2U)
    sx, sy = _df_add2(sx, sy, q * -_L2L)
    u = np.full(dx.shape, f32(0.1980960224e-3), f32)
    for c in (0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1):
        u = fma32(u, sx, f32(c))
    tx, ty = _df_add2(*_df_mul_f(sx, sy, u), f32(0.166666659414234244790680580464))
    tx, ty = _df_add2(*_df_mul(sx, sy, tx, ty), f32(0.5))
    tx, ty = _df_add2_df(sx, sy, *_df_mul(*_df_squ(sx, sy), tx, ty))
    s = f32(1) + tx                                           # dfadd_vf2_vf_vf2(1, t)
    ty = ((f32(1) - s) + tx) + ty
    tx = _ldexp2(s, qi)
    ty = _ldexp2(ty, qi)
    low = dx < -104
    tx[low] = 0
    ty[low] = 0
    return tx, ty


def _sleef_expm1f(a):
    with np.errstate(all="ignore"):
        dx, dy = _df_add2(*_expk2f(a), f32(-1))
        x = dx + dy
        x[a > f32(88.72283172607421875)] = np.inf
        x[a < f32(-16.635532333438687426013570)] = -1
        x[(a == 0) & np.signbit(a)] = f32(-0.0)
        x[np.isnan(a)] = np.nan
    return x


def _sleef_sinhcoshf(x, cosh):
    with np.errstate(all="ignore"):
        y = np.abs(x)
        dx, dy = _expk2f(y)
        rx, ry = _df_rec(dx, dy)
        if cosh:                                              # dfadd_vf2_vf2_vf2(d, rec)
            s = dx + rx
            t = (((dx - s) + rx) + dy) + ry
        else:                                                 # dfsub_vf2_vf2_vf2(d, rec)
            s = dx - rx
            t = (((dx - s) - rx) + dy) - ry
        y = (s + t) * f32(0.5)
        y[(np.abs(x) > 89) | np.isnan(y)] = np.inf
        if not cosh:
            y = np.copysign(y, x)
        y[np.isnan(x)] = np.nan
    return y


_LOG1PF_BOUND = f32(float.fromhex("0x1.2ced32p+126"))


def _sleef_log1pf(d):
    with np.errstate(all="ignore"):
        dp1 = d + f32(1)
        _, ex = np.frexp(dp1 * _R075)
        e = (ex - 1).astype(f32)                              # vgetexp (floor of log2)
        e[np.isposinf(dp1)] = 128
        ei = np.clip(e, -126, 127).astype(np.int32)
        t = ((127 - ei) << 23).astype(np.int32).view(f32)     # vldexp3(1, -e)
        m = fma32(d, t, t - f32(1))
        sx = _LN2_HI * e                                      # dfmul((ln2 hi, lo), e)
        sy = fma32(_LN2_LO, e, fma32(_LN2_HI, e, -sx))
        dx = f32(2) + m                                       # dfadd_vf2_vf_vf(2, m)
        dy = (f32(2) - dx) + m
        tt = f32(1) / dx                                      # dfdiv((m, 0), (dx, dy))
        xx = m * tt
        u = fma32(tt, m, -xx)
        v = fma32(-dy, tt, fma32(-dx, tt, f32(1)))
        xy = fma32(xx, v, u)
        x2 = xx * xx
        p = fma32(fma32(np.full(d.shape, _LOG_POLY[0], f32), x2, _LOG_POLY[1]), x2, _LOG_POLY[2])
        hx = sx + xx * f32(2)                                 # dfadd(s, dfscale(x, 2))
        hy = (((sx - hx) + xx * f32(2)) + sy) + xy * f32(2)
        w = (x2 * xx) * p
        s2 = hx + w
        r = s2 + (((hx - s2) + w) + hy)
        big = ~(d <= _LOG1PF_BOUND) & ~np.isnan(d)
        if big.any():
            r[big] = logf(d[big])
        r[d < -1] = np.nan
        r[d == -1] = -np.inf
        r[(d == 0) & np.signbit(d)] = f32(-0.0)
        r[np.isnan(d)] = np.nan
    return r


def _sleef_unary(fn):
    def run(x):
        x = np.asarray(x, f32)
        if x.size > _CHUNK:
            return _chunked(run, x)
        return fn(x.ravel()).reshape(x.shape) if x.size else x.copy()
    return run


sleef_expm1f = _sleef_unary(_sleef_expm1f)
sleef_log1pf = _sleef_unary(_sleef_log1pf)
sleef_sinhf = _sleef_unary(lambda x: _sleef_sinhcoshf(x, False))
sleef_coshf = _sleef_unary(lambda x: _sleef_sinhcoshf(x, True))


# ---------------------------------------------------------------- the scalar tails: libm
# cpu_kernel_vec's scalar loop calls std::sinh(float) & co.: the C library's float functions
# (glibc's sinhf is not correctly rounded). They are called here one by one through ctypes:
# a tail has fewer than 32 elements. Where libm cannot be loaded (or the array is large: a
# non-contiguous tensor goes all through the scalar loop), the float64 result rounded once.
_LIBM = [None]
_LIBM_MAX = 4096


def _libm():
    got = _LIBM[0]
    if got is None:
        got = False
        try:    # (ctypes.util's find_library would import shutil and subprocess)
            try:
                lib = ctypes.CDLL("libm.so.6")
            except OSError:
                lib = ctypes.CDLL(None)     # the process's own libm symbols
            for name in ("sinhf", "coshf", "expm1f", "log1pf", "expf", "logf", "tanhf", "erff", "powf", "atan2f",
                         "acosf", "cosf", "sinf", "exp2f", "asinhf", "acoshf", "atanhf"):
                fn = getattr(lib, name)
                fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float] * (2 if name in ("powf", "atan2f") else 1)
            got = lib
        except (OSError, AttributeError):
            pass
        _LIBM[0] = got
    return got


# the functions _kernels.libm_float calls, by code (_kernels.c's LIBM_FLOAT, in this order)
_LIBM_CODES = ("sinhf", "coshf", "expm1f", "log1pf", "expf", "logf", "tanhf", "erff", "acosf", "cosf",
               "sinf", "exp2f", "asinhf", "acoshf", "atanhf")


def libm_float(name, f64, limit=None):
    """The scalar loop's std::NAME(float) over a float32 array: libm element by element, in C
    (_kernels) at any size, else through ctypes up to `limit` elements (_LIBM_MAX unless
    given) and f64 rounded once above."""
    limit = _LIBM_MAX if limit is None else limit
    code = _LIBM_CODES.index(name) if name in _LIBM_CODES else None

    def run(x):
        if code is not None and _C is not None and hasattr(_C, "libm_float"):
            src = np.ascontiguousarray(x, f32)
            out = np.empty(src.shape, f32)
            if src.size:
                _C.libm_float(code, src, out)
            return out.reshape(np.shape(x))
        lib = _libm()
        if not lib or x.size > limit:
            with np.errstate(all="ignore"):
                return f64(x.astype(np.float64)).astype(f32)
        fn = getattr(lib, name)
        return np.array([fn(v) for v in x.ravel().tolist()], f32).reshape(x.shape)
    return run


_LIBM_CODES2 = ("powf", "atan2f")     # _kernels.c's LIBM_FLOAT2


def libm_float2(name, f64):
    """The scalar loop's std::NAME(float, float) over two float32 arrays of one shape (in C
    at any size where _kernels is built)."""
    code = _LIBM_CODES2.index(name) if name in _LIBM_CODES2 else None

    def run(a, b):
        if code is not None and _C is not None and hasattr(_C, "libm_float2"):
            a, b = np.broadcast_arrays(np.asarray(a, f32), np.asarray(b, f32))
            shape = a.shape
            a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
            out = np.empty(shape, f32)
            if out.size:
                _C.libm_float2(code, a, b, out)
            return out
        lib = _libm()
        if not lib or a.size > _LIBM_MAX:
            with np.errstate(all="ignore"):
                return f64(a.astype(np.float64), b.astype(np.float64)).astype(f32)
        fn = getattr(lib, name)
        return np.array([fn(u, v) for u, v in zip(a.ravel().tolist(), b.ravel().tolist())], f32).reshape(a.shape)
    return run


_sinhf_tail = libm_float("sinhf", np.sinh)
_coshf_tail = libm_float("coshf", np.cosh)


def sinhf(x):
    """torch.sinh of float32: Sleef's sinhf in the vectorised body, libm's in the tail."""
    return _body_and_tail(x, sleef_sinhf, _sinhf_tail)


def coshf(x):
    """torch.cosh of float32: as sinhf."""
    return _body_and_tail(x, sleef_coshf, _coshf_tail)


def _body_and_tail2(x, y, vector, scalar, grain=GRAIN):
    """_body_and_tail for a kernel of two same-shaped arrays (a backward's grad and input):
    both in the same memory order, else all through `scalar`."""
    if x.shape != y.shape:
        # one element against many: TensorIterator's loop reads it as a scalar, with the
        # body and tail of the other; other broadcasts (rows of an inner loop) go through
        # the scalar loop here
        shape = np.broadcast_shapes(x.shape, y.shape)
        if y.size == 1 and x.shape == shape:
            full = np.empty_like(x)     # in x's memory order
            full[...] = y
            y = full
        elif x.size == 1 and y.shape == shape:
            full = np.empty_like(y)
            full[...] = x
            x = full
        else:
            x, y = np.broadcast_arrays(x, y)
    elif x.size > 1:
        # one value expanded to the other's shape (the gradient of a sum or a mean): every
        # stride 0, which TensorIterator's loop reads as a scalar beside the other's body
        if not any(y.strides):
            full = np.empty_like(x)
            full[...] = y
            y = full
        elif not any(x.strides):
            full = np.empty_like(y)
            full[...] = x
            x = full
    if x.flags.c_contiguous and y.flags.c_contiguous:
        order = "C"
    elif x.flags.f_contiguous and y.flags.f_contiguous:
        order = "F"
    else:
        return scalar(np.asarray(x), np.asarray(y))
    fx, fy = x.ravel(order=order), y.ravel(order=order)
    n = fx.size
    threads = THREADS["n"]
    step = -(-n // min(threads, -(-n // grain))) if n > grain and threads > 1 else max(n, 1)
    pieces = []
    lanes = _lanes(np.result_type(x, y))
    for start in range(0, n, step):
        sx, sy = fx[start:start + step], fy[start:start + step]
        body = sx.size - sx.size % (2 * lanes)
        if body:
            pieces.append(vector(sx[:body], sy[:body]))
        if body < sx.size:
            pieces.append(scalar(sx[body:], sy[body:]))
    if not pieces:
        return np.empty(x.shape, np.result_type(x, y))
    out = pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
    return out.reshape(x.shape, order=order)


_expf_tail = _exp_glibc
_log1pf_tail = libm_float("log1pf", np.log1p)


def softplus(x, beta, threshold):
    """softplus_kernel: log1p(exp(x * beta)) / beta where x * beta <= threshold, else x (Sleef's
    expf and log1pf in the vectorised body, libm's in the tail); beta and threshold in the
    dtype (float32 or float64)."""
    M = _math(x)
    b, th = M.t(beta), M.t(threshold)

    def vector(v):
        xb = v * b
        return np.where(xb > th, v, M.log1p(M.exp(xb)) / b)

    def scalar(v):
        xb = v * b
        return np.where(xb > th, v, M.log1p_tail(M.exp_tail(xb)) / b)
    with np.errstate(over="ignore", invalid="ignore"):
        return _body_and_tail(x, vector, scalar)


def softplus_backward(grad, x, beta, threshold):
    """softplus_backward's kernel: grad * z / (z + 1), z = exp(x * beta), where x * beta <= threshold."""
    M = _math(x)
    b, th, one = M.t(beta), M.t(threshold), M.t(1)

    def make(exp):
        def run(g, v):
            xb = v * b
            z = exp(xb)
            return np.where(xb > th, g, g * z / (z + one))
        return run
    with np.errstate(over="ignore", invalid="ignore"):
        return _body_and_tail2(grad, x, make(M.exp), make(M.exp_tail))


def log_sigmoid(x):
    """_vec_log_sigmoid: min(x, 0) - log1p(exp(-|x|)), every element in vectors (the last
    partial), so Sleef's expf and log1pf throughout. Returns the output and the buffer exp(-|x|)."""
    M = _math(x)
    buf = M.exp(-np.abs(x))
    with np.errstate(invalid="ignore"):
        return np.minimum(x, M.t(0)) - M.log1p(buf), buf


def log_sigmoid_backward(grad, x, buf):
    """log_sigmoid_backward's kernel: (max_deriv - sign * (buf / (1 + buf))) * grad."""
    neg = x < 0
    t = _math(x).t
    with np.errstate(invalid="ignore"):
        return (np.where(neg, t(1), t(0)) - np.where(neg, t(1), t(-1)) * (buf / (t(1) + buf))) * grad


_expm1f_tail = libm_float("expm1f", np.expm1)


def elu(x, alpha, scale, input_scale):
    """elu_kernel: expm1(x * input_scale) * (alpha * scale) where x <= 0, else x * scale, its
    coefficients as float32; Sleef's expm1f in the vectorised body, libm's in the tail."""
    M = _math(x)
    neg, pos, ipt = M.t(alpha) * M.t(scale), M.t(scale), M.t(input_scale)

    def make(exp):
        return lambda v: np.where(v > 0, v * pos, exp(v * ipt) * neg)
    with np.errstate(over="ignore", invalid="ignore"):
        return _body_and_tail(x, make(M.expm1), make(M.expm1_tail))


def elu_backward(grad, x, alpha, scale, input_scale):
    """elu_backward's kernel (is_result false): grad * input_scale * (alpha * scale) * exp(x * input_scale)
    where x <= 0, else grad * scale."""
    M = _math(x)
    neg, pos, ipt = M.t(alpha) * M.t(scale), M.t(scale), M.t(input_scale)

    def vector(g, v):       # blendv(negative side, g * scale, v > 0): NaN takes the negative side
        return np.where(v > 0, g * pos, g * ipt * neg * M.exp(v * ipt))

    def scalar(g, v):       # v <= 0 ? negative side : g * scale
        return np.where(v <= 0, g * ipt * neg * M.exp_tail(v * ipt), g * pos)
    with np.errstate(over="ignore", invalid="ignore"):
        return _body_and_tail2(grad, x, vector, scalar)


def silu_backward(grad, x):
    """silu_backward's kernel: grad * s * (1 + x * (1 - s)), s = 1 / (1 + exp(-x)), the last
    multiply-add fused as GCC compiles it."""
    M = _math(x)
    one = M.t(1)

    def make(exp):
        def run(g, v):
            s = one / (one + exp(-v))
            return g * s * M.fma(v, one - s, one)
        return run
    with np.errstate(over="ignore", invalid="ignore"):
        return _body_and_tail2(grad, x, make(M.exp), make(M.exp_tail))


def hardswish_backward(grad, x):
    """hardswish_backward's kernel: 0 below -3, grad * (x / 3 + 0.5) up to 3, grad above; the
    vectorised body takes grad from 3 on, the scalar tail only above 3."""
    three, half = f32(3), f32(0.5)

    def vector(g, v):
        return np.where(v < -three, f32(0), np.where(v >= three, g, g * (v / three + half)))

    def scalar(g, v):
        return np.where(v < -three, f32(0), np.where(v <= three, g * (v / three + half), g))
    with np.errstate(invalid="ignore"):
        return _body_and_tail2(grad, x, vector, scalar)


# ---------------------------------------------------------------- softmax over another dim
_logf_tail = _glibc_logf


def _dim_lanes(outer, inner, width=None):
    """_vec_softmax / _vec_log_softmax (inner size > 1) walk the outer * inner positions split
    among the threads (parallel_for, grain 0): a position starts a vector when its
    LANES lanes fit both in its row and in its thread's part, else it is computed alone. True
    where the position is in a vector."""
    n = outer * inner
    mask = np.zeros(n, bool)
    threads, width = THREADS["n"], width or LANES
    step = -(-n // min(threads, n)) if n > 1 and threads > 1 else max(n, 1)
    for begin in range(0, n, step):
        end = min(n, begin + step)
        idx = begin
        while idx < end:
            if idx % inner + width <= inner and idx + width <= end:
                mask[idx:idx + width] = True
                idx += width
            else:   # alone up to the next row or the part's end, then vectors again
                stop = min(end, (idx // inner + 1) * inner)
                if idx % inner + width <= inner:    # near the part's end only
                    stop = end
                idx = stop
    return mask.reshape(outer, 1, inner)


def _dim_parts(x, dim):
    x = np.ascontiguousarray(x)
    s = x.shape
    x3 = x.reshape(int(np.prod(s[:dim], dtype=np.int64)), s[dim], int(np.prod(s[dim + 1:], dtype=np.int64)))
    M = _math(x)
    mask = _dim_lanes(x3.shape[0], x3.shape[2], _lanes(x.dtype))
    shifted = x3 - np.maximum.reduce(x3, axis=1, keepdims=True)
    with np.errstate(over="ignore"):
        e = np.where(mask, M.exp(shifted), M.exp_tail(shifted))
    total = e[:, 0].copy()
    for i in range(1, x3.shape[1]):         # along the dim, in order
        total += e[:, i]
    return shifted, e, total[:, None], mask


def softmax_dim(x, dim):
    """softmax of a float32 (or float64) array over a dim that is not the last (of size > 1 inner)."""
    _, e, total, _ = _dim_parts(x, dim)
    return (e / total).reshape(x.shape)


def log_softmax_dim(x, dim):
    """log_softmax of a float32 array over a dim that is not the last (_vec_logsoftmax): the
    inner positions in chunks as its backward (_chunk_lanes), sum(exp(x - max)) along the dim
    with Sleef's expf in the vectors and glibc's in a chunk's lone lanes, the log of every sum
    Sleef's (vec::map), then x - max - log(sum)."""
    x3, mask = _dim3(x, dim)
    shifted = x3 - np.maximum.reduce(x3, axis=1, keepdims=True)
    e = _masked_exp(shifted, mask)
    total = e[:, 0].copy()
    for i in range(1, x3.shape[1]):
        total += e[:, i]
    log = sleef64["log"] if x.dtype == np.float64 else logf
    return (shifted - log(total)[:, None]).reshape(x.shape)


def _masked_exp(v, mask):
    """exp of an (outer, dim, inner) float32 array: Sleef's expf where mask (over the inner
    positions) is True, glibc's expf elsewhere."""
    M = _math(v)
    with np.errstate(over="ignore"):
        e = M.exp(v)
        lone = ~mask[0, 0]
        if lone.any():
            e[:, :, lone] = M.exp_tail(v[:, :, lone])
    return e


def _dim3(x, dim):
    """x as (outer, dim, inner) and where each inner position is in a vector in the kernels
    that block the inner positions in chunks of CHUNK_SIZE (128 KB over the dim, a multiple of
    the vector; _vec_logsoftmax and the backward kernels): a chunk's last positions that fill
    no vector are computed one by one."""
    s = x.shape
    x3 = np.ascontiguousarray(x).reshape(int(np.prod(s[:dim], dtype=np.int64)), s[dim],
                                         int(np.prod(s[dim + 1:], dtype=np.int64)))
    width, inner = _lanes(x3.dtype), x3.shape[2]
    chunk = max(128 * 1024 // x3.shape[1] // x3.dtype.itemsize, width) // width * width
    pos = np.arange(inner)
    size = np.minimum(chunk, inner - pos // chunk * chunk)
    return x3, (pos % chunk < size - size % width)[None, None, :]


def softmax_backward_dim(grad, out, dim):
    """grad of softmax over a dim that is not the last: sum(grad * out) along the dim in order
    (each step one fused multiply-add, as GCC compiles the kernel), then out * (grad - sum)."""
    (g3, _), (y3, _) = _dim3(grad, dim), _dim3(out, dim)
    total = g3[:, 0] * y3[:, 0]
    for i in range(1, g3.shape[1]):
        total = fma32(g3[:, i], y3[:, i], total)
    return (y3 * (g3 - total[:, None])).reshape(out.shape)


def log_softmax_backward_dim(grad, out, dim):
    """grad of log_softmax over a dim that is not the last: grad - exp(out) * sum(grad), the
    product and difference fused; Sleef's expf in the vectors, glibc's in the lone lanes."""
    (g3, _), (y3, mask) = _dim3(grad, dim), _dim3(out, dim)
    total = g3[:, 0].copy()
    for i in range(1, g3.shape[1]):
        total += g3[:, i]
    e = _masked_exp(y3, mask)
    return fma32(-e, total[:, None], g3).reshape(out.shape)


_powf_tail = libm_float2("powf", np.power)      # std::pow(float, float)
powf_scalar_loop = _powf_tail


def pow_tensor(x, y):
    """float32 x ** y for two tensors: Sleef's powf in the vectorised body, std::pow(float,
    float) (libm's powf) in the tail."""
    scalar = _powf_tail
    with np.errstate(all="ignore"):
        return _body_and_tail2(x, y, _powf_sleef, scalar)


# ---------------------------------------------------------------- atan2 (Sleef_atan2f16_u10)
def _mulsign(a, b):
    """vmulsign: a with its sign flipped where b's sign bit is set."""
    return np.where(np.signbit(b), -a, a)


def _atan2kf(y, x):
    """Sleef's atan2kf_u1 of (y, 0) and (x, 0), y >= 0: atan2 as a double-float."""
    q = np.where(x < 0, -2, 0).astype(np.int32)
    x = np.where(x < 0, -x, x)
    q = np.where(x < y, q + 1, q)
    p = x < y
    n = np.where(p, -x, y)
    d = np.where(p, y, x)
    t = f32(1) / d                                            # dfdiv((n, 0), (d, 0))
    sx = n * t
    u = fma32(t, n, -sx)
    v = fma32(np.zeros_like(d), t, fma32(-d, t, f32(1)))
    sy = fma32(sx, v, u)
    tx = sx * sx                                              # dfsqu, dfnormalize
    ty = fma32(sx + sx, sy, fma32(sx, sx, -tx))
    s = tx + ty
    ty = (tx - s) + ty
    tx = s
    u = np.full(tx.shape, f32(-0.00176397908944636583328247), f32)
    for c in (0.0107900900766253471374512, -0.0309564601629972457885742, 0.0577365085482597351074219,
              -0.0838950723409652709960938, 0.109463557600975036621094, -0.142626821994781494140625,
              0.199983194470405578613281):
        u = fma32(u, tx, f32(c))
    w = u * tx                                                # dfadd_vf2_vf_vf(c, u * t)
    ax = f32(-0.333332866430282592773438) + w
    ay = (f32(-0.333332866430282592773438) - ax) + w
    tx, ty = _df_mul(tx, ty, ax, ay)
    bx = f32(1) + tx                                          # dfadd_vf2_vf_vf2(1, t)
    by = ((f32(1) - bx) + tx) + ty
    tx, ty = _df_mul(sx, sy, bx, by)
    qf = q.astype(f32)
    mx = f32(1.5707963705062866211) * qf                      # dfmul((pi/2 hi, lo), q)
    my = fma32(f32(-4.3711388286737928865e-08), qf, fma32(f32(1.5707963705062866211), qf, -mx))
    s = mx + tx                                               # dfadd_vf2_vf2_vf2
    return s, (((mx - s) + tx) + my) + ty


def _visinf2(d, m):
    return np.where(np.isinf(d), np.where(np.signbit(d), -np.abs(m), m), f32(0))


def _sleef_atan2f(y, x):
    with np.errstate(all="ignore"):
        tiny = np.abs(x) < f32(2.9387372783541830947e-39)
        x = np.where(tiny, x * f32(1 << 24), x)
        y = np.where(tiny, y * f32(1 << 24), y)
        dx, dy = _atan2kf(np.abs(y), x)
        r = _mulsign(dx + dy, x)
        half_pi = f32(np.pi / 2)
        r = np.where(np.isinf(x) | (x == 0), half_pi - _visinf2(x, _mulsign(half_pi, x)), r)
        r = np.where(np.isinf(y), half_pi - _visinf2(x, _mulsign(f32(np.pi / 4), x)), r)
        r = np.where(y == 0, np.where(np.signbit(x), f32(np.pi), f32(0)), r)
        r = np.where(np.isnan(x) | np.isnan(y), f32(np.nan), _mulsign(r, y))
    return r.astype(f32)


_atan2f_tail = libm_float2("atan2f", np.arctan2)


def atan2(y, x):
    """torch.atan2 of float32 (or float64) tensors: Sleef's atan2f (atan2) in the vectorised
    body, libm's in the tail."""
    if np.result_type(y, x) == np.float64:
        return _body_and_tail2(y, x, sleef64["atan2"], libm64["atan2"])
    return _body_and_tail2(y, x, _sleef_atan2f, _atan2f_tail)


def logaddexp(a, b):
    """logaddexp's kernel: max(a, b) + log1p(exp(-|a - b|)), a where a == b is infinite;
    Sleef's expf and log1pf in the vectorised body, glibc's expf and libm's log1pf in the tail."""
    M = _math(a)

    def make(exp, log1p):
        def run(x, y):
            m = np.maximum(x, y)
            out = m + log1p(exp(-np.abs(x - y)))
            return np.where((x == y) & np.isinf(x), x, out)
        return run

    def scalar(x, y):       # std::max(a, b): a unless a < b (NaN b gives a)
        m = np.where(x < y, y, x)
        out = m + M.log1p_tail(M.exp_tail(-np.abs(x - y)))
        return np.where(np.isinf(x) & (x == y), x, out)
    with np.errstate(all="ignore"):
        return _body_and_tail2(a, b, make(M.exp, M.log1p), scalar)


_INV_LN2 = f32(1.0 / math.log(2.0))


def logaddexp2(a, b):
    """logaddexp2's kernel: max(a, b) + log1p(exp2(-|a - b|)) / ln 2 (the product and the sum
    fused), a where a == b is infinite; Sleef's exp2f and log1pf in the vectorised body,
    glibc's exp2f and libm's log1pf in the tail."""
    M = _math(a)
    inv_ln2 = M.t(1.0 / math.log(2.0))

    def combine(m, t):
        return M.fma(t, np.full(t.shape, inv_ln2, M.t), m)

    def vector(x, y):
        out = combine(np.maximum(x, y), M.log1p(M.exp2(-np.abs(x - y))))
        return np.where((x == y) & np.isinf(x), x, out)

    def scalar(x, y):
        out = combine(np.where(x < y, y, x), M.log1p_tail(M.exp2_tail(-np.abs(x - y))))
        return np.where(np.isinf(x) & (x == y), x, out)
    with np.errstate(all="ignore"):
        return _body_and_tail2(a, b, vector, scalar)


def logit(x):
    """logit's cpu_kernel_vec: log(x / (1 - x)) with Sleef's logf in the vectorised body, and
    x == 1 ? inf : glibc's logf(x / (1 - x)) in the scalar tail."""
    if x.dtype == np.float64:
        log, log_tail, one = sleef64["log"], libm64["log"], 1.0
    else:
        log, log_tail, one = logf, _glibc_logf, f32(1)
    with np.errstate(all="ignore"):
        return _body_and_tail(x, lambda v: log(v / (one - v)),
                              lambda v: np.where(v == 1, x.dtype.type(np.inf), log_tail(v / (one - v))))


def xlogy(x, y):
    """xlogy's kernel (cpu_kernel, scalar only): NaN where y is NaN, 0 where x is 0, else
    x * std::log(y) in float32 (libm's logf, rounded before the product)."""
    x, y = np.broadcast_arrays(x, y)
    with np.errstate(all="ignore"):
        out = x * _logf_tail(y)
        out = np.where(x == 0, f32(0), out)
        return np.where(np.isnan(y), f32(np.nan), out).astype(f32)


# ---------------------------------------------------------------- tanh inside activations
def _sleef_tanhf(x):
    """Sleef's xtanhf (u10): (e - 1/e) / (e + 1/e) in double-float, e = exp|x|."""
    with np.errstate(all="ignore"):
        y = np.abs(x)
        dx, dy = _expk2f(y)
        ex, ey = _df_rec(dx, dy)
        nx = dx - ex                                          # dfadd_vf2_vf2_vf2(d, -e)
        ny = (((dx - nx) - ex) + dy) - ey
        mx = dx + ex                                          # dfadd_vf2_vf2_vf2(d, e)
        my = (((dx - mx) + ex) + dy) + ey
        t = f32(1) / mx                                       # dfdiv(n, m)
        s = nx * t
        u = fma32(t, nx, -s)
        v = fma32(-my, t, fma32(-mx, t, f32(1)))
        r = s + fma32(s, v, fma32(ny, t, u))
        r[(y > f32(8.664339742)) | np.isnan(r)] = 1
        r = _mulsign(r, x)
        r[np.isnan(x)] = np.nan
    return r


sleef_tanhf = _sleef_unary(_sleef_tanhf)

_tanhf_tail = libm_float("tanhf", np.tanh)
_GELU_BETA = f32(np.sqrt(2) * (2 / np.sqrt(np.pi)) * 0.5)
_GELU_KAPPA = f32(0.044715)


def gelu_tanh(x):
    """GeluKernelImpl (tanh): 0.5 * x * (1 + tanh(beta * (x + kappa * x**3))), the inner
    multiply-add fused; Sleef's tanhf (tanh) in the vectorised body, libm's in the tail."""
    M = _math(x)
    beta, kappa = M.gelu_beta, M.t(0.044715)

    def make(tanh):
        def run(v):
            inner = beta * M.fma(kappa, v * v * v, v)
            return M.t(0.5) * v * (M.t(1) + tanh(inner))
        return run
    with np.errstate(all="ignore"):
        return _body_and_tail(x, make(M.tanh), make(M.tanh_tail), grain=_gelu_grain(x.size))


def _gelu_grain(n):
    """GELU_MIN_ELEMENTS_FOR_MULTI_THREADING: above 16384 elements, one part per thread."""
    return max(1, n // THREADS["n"]) if n > 16384 else GRAIN


def gelu_tanh_backward(grad, x):
    """GeluBackwardKernelImpl (tanh): the inner and 1 - t*t multiply-adds fused as GCC
    compiles them, the last sum not."""
    M = _math(x)
    beta, kappa, one, half = M.gelu_beta, M.t(0.044715), M.t(1), M.t(0.5)
    three_kappa = M.t(3) * kappa

    def make(tanh):
        def run(g, v):
            x_sq = v * v
            t = tanh(beta * M.fma(kappa, x_sq * v, v))
            left_derivative = half * (one + t)
            tanh_derivative = M.fma(-t, t, one)
            inner_derivative = beta * M.fma(three_kappa, x_sq, one)
            lt = half * v * tanh_derivative
            return g * (left_derivative + lt * inner_derivative)     # (not fused: measured)
        return run
    with np.errstate(all="ignore"):
        return _body_and_tail2(grad, x, make(M.tanh), make(M.tanh_tail))


def mish(x):
    """mish_kernel: x * tanh(log1p(exp(x))): Sleef's expf, log1pf and tanhf in the vectorised
    body, glibc's expf and libm's log1pf and tanhf in the tail."""
    M = _math(x)
    with np.errstate(all="ignore"):
        return _body_and_tail(x, lambda v: v * M.tanh(M.log1p(M.exp(v))),
                              lambda v: v * M.tanh_tail(M.log1p_tail(M.exp_tail(v))))


def mish_backward(grad, x):
    """mish_backward_kernel: grad * (t + x * s * (1 - t * t)), t = tanh(softplus(x)), s = sigmoid(x)."""
    M = _math(x)
    one = M.t(1)

    def make(exp, log1p, tanh):
        def run(g, v):
            s = one / (one + exp(-v))
            t = tanh(log1p(exp(v)))
            return g * M.fma(v * s, M.fma(-t, t, one), t)
        return run
    with np.errstate(all="ignore"):
        return _body_and_tail2(grad, x, make(M.exp, M.log1p, M.tanh),
                               make(M.exp_tail, M.log1p_tail, M.tanh_tail))


# ---------------------------------------------------------------- GELU (erf) through oneDNN
# For a contiguous float32 tensor of more than one element PyTorch's gelu and gelu_backward
# (approximate='none') call oneDNN's eltwise_gelu_erf (ideep), whose JIT code computes erf its
# own way: the AVX512 forward a piecewise degree-5 polynomial in |x| picked by x's exponent
# and two mantissa bits; the AVX2 forward, and the backward on both, Abramowitz and Stegun's
# formula 7.1.26 with oneDNN's own exp. Each vector instruction is one float32 rounding (fused
# multiply-adds once). The constants are float32 bit patterns.
def _u32(*bits):
    return np.array(bits, np.uint32).view(f32)


# per degree 0..5, the coefficient of polynomial 0..24 (index 0 is never chosen)
_GELU_ERF_POLY = tuple(_u32(*row) for row in (
    (0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229, 0x37b8a3bb,
     0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b, 0x3c515ed3, 0xbb503236,
     0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced, 0x3f470d99, 0x3f7abb28, 0x3f800000, 0),
    (0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f, 0x3f4c2d40,
     0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07, 0x3f3b980f, 0x3f48dff3,
     0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e, 0x3e6c8684, 0x3c98f936, 0, 0x3f800000),
    (0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb, 0x3af9b960,
     0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660, 0x3e0f27ab, 0x3d94004b,
     0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8, 0xbdc4f8a8, 0xbbde6422, 0, 0),
    (0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0, 0xbe0e400a,
     0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f, 0xbe96cbca, 0xbe8044aa,
     0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91, 0x3ca46568, 0x3aa1e00a, 0, 0),
    (0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527, 0x3c221712,
     0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910, 0x3dd53f69, 0x3db7dcef,
     0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab, 0xbb097a32, 0xb8ebf380, 0, 0),
    (0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623, 0x3c4c824b,
     0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366, 0xbc492c9e, 0xbc2a7aa6,
     0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792, 0x38b84375, 0x3689bb5a, 0, 0)))
_GELU_ERF_IDX_BIAS = np.uint32(0xc21fffff)
_GELU_ERF_RBOUND = _u32(0x40b15cee)[0]
_AS_P, _AS_SQRT1_2, _AS_1_SQRTPI = _u32(0x3ea7ba05, 0x3f3504f3, 0x3f106eba)
_AS_POLY = _u32(0x3e827906, 0xbe91a98e, 0x3fb5f0e3, 0xbfba00e3, 0x3f87dc22)
_DNNL_LOG2E, _DNNL_LN2, _DNNL_LN_MAX, _DNNL_LN_MIN = _u32(0x3fb8aa3b, 0x3f317218, 0x42b17218, 0xc2aeac50)
_DNNL_EXP_POLY = _u32(0x3f7ffffb, 0x3efffee3, 0x3e2aad40, 0x3d2b9d0d, 0x3c07cfce)
_SIGN = np.uint32(0x80000000)
_ONE, _HALF = f32(1), f32(0.5)


def _sign_bits(v):
    return v.view(np.uint32) & _SIGN


def _dnnl_exp(v):
    """oneDNN's exp_compute_vector_fwd: 2 * 2**(n-1) * p(r), n = floor(x*log2e + 0.5)."""
    under = v < _DNNL_LN_MIN
    v = np.maximum(np.minimum(v, _DNNL_LN_MAX), _DNNL_LN_MIN)     # minps/maxps: NaN takes the bound
    fx = np.floor(v * _DNNL_LOG2E + _HALF)
    r = fma32(-fx, _DNNL_LN2, v)
    n = (fx - _ONE).astype(np.int32)
    scale = ((n + 127) << 23).astype(np.int32).view(f32)
    scale[under] = 0
    p = np.full(v.shape, _DNNL_EXP_POLY[4], f32)
    for c in _DNNL_EXP_POLY[3::-1]:
        p = fma32(p, r, c)
    p = fma32(p, r, _ONE)
    return p * scale * f32(2)


def _gelu_erf_dnnl_fwd(x):
    with np.errstate(all="ignore"):
        pos = np.abs(x)
        idx = ((pos.view(np.uint32) + _GELU_ERF_IDX_BIAS).view(np.int32) >> 21)
        idx = np.clip(idx, 1, 24)
        idx[_GELU_ERF_RBOUND < pos] = 23
        coeff = [c[idx] for c in _GELU_ERF_POLY]
        pol = coeff[5]
        for c in coeff[4::-1]:
            pol = fma32(pol, pos, c)
        pol = (pol.view(np.uint32) ^ _sign_bits(x)).view(f32)
        return (x * (pol + _ONE)) * _HALF


def _dnnl_erf_as(r):
    """erf(r) by Abramowitz and Stegun 7.1.26 as oneDNN's JIT code computes it: 1 - p(w) w
    exp(-r*r), w = 1 / (1 + 0.3275911 |r|), the sign put back; and exp(-r*r)."""
    q = _dnnl_exp(-(r * r))
    w = _ONE / fma32(_AS_P, np.abs(r), _ONE)
    s = -q * w
    pol = np.full(r.shape, _AS_POLY[4], f32)
    for c in _AS_POLY[3::-1]:
        pol = fma32(pol, w, c)
    erf = fma32(s, pol, _ONE)
    return (erf.view(np.uint32) ^ _sign_bits(r)).view(f32), q


def _gelu_erf_dnnl_fwd_as(x):
    """The AVX2 forward (gelu_erf_compute_vector_fwd): S + S * erf(x * sqrt 1/2) fused,
    S = x * 0.5."""
    with np.errstate(all="ignore"):
        half_x = x * _HALF
        return fma32(_dnnl_erf_as(x * _AS_SQRT1_2)[0], half_x, half_x)


def _gelu_erf_dnnl_bwd(g, x):
    with np.errstate(all="ignore"):
        r = x * _AS_SQRT1_2
        erf, q = _dnnl_erf_as(r)
        t = (r * _AS_1_SQRTPI) * q
        return g * fma32(erf, _HALF, t + _HALF)


_gelu_erf_dnnl = {"avx512": _sleef_unary(_gelu_erf_dnnl_fwd), "avx2": _sleef_unary(_gelu_erf_dnnl_fwd_as)}


def gelu_erf_dnnl(x):
    """oneDNN's forward of the capability emulated (its JIT code follows the machine's too)."""
    return _gelu_erf_dnnl["avx512" if cpu.capability() == "avx512" else "avx2"](x)


def gelu_erf_dnnl_backward(grad, x):
    grad, x = np.asarray(grad, f32), np.asarray(x, f32)
    return _gelu_erf_dnnl_bwd(grad.ravel(), x.ravel()).reshape(x.shape)


# ---------------------------------------------------------------- GELU (erf) without oneDNN
# A single element or a non-contiguous input goes through PyTorch's own GeluKernelImpl:
# Vectorized<float>::erf (Abramowitz and Stegun 7.1.26 with Sleef's expf) in the vectorised
# body, the C library's erff and expf (glibc's, computed as glibc does) in the scalar tail.
_VEC_ERF_P = f32(0.3275911)
_VEC_ERF_POLY = tuple(f32(c) for c in (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429))
_GELU_ALPHA = f32(1 / np.sqrt(2))
_GELU_ERF_BETA = f32(2 / np.sqrt(np.pi) * (1 / np.sqrt(2)) * 0.5)
# glibc's erff (sysdeps/ieee754/flt-32/s_erff.c up to glibc 2.40: SunPro's erf in float,
# rational approximations on [0, 0.84375), [0.84375, 1.25), [1.25, 1/0.35), [1/0.35, 6) and
# two expf calls), every step one float32 rounding, no fused multiply-add; checked against
# this machine's libm (glibc 2.36) by tests/engine/test_float_bits.py. Computed here rather
# than called element by element: the non-contiguous case runs whole tensors through it.
_ERF_ERX, _ERF_EFX = _u32(0x3f58560b, 0x3e0375d4)
_ERF_PP = _u32(0x3e0375d4, 0xbea66beb, 0xbce9528f, 0xbbbd1489, 0xb7c756b1)
_ERF_QQ = _u32(0x3f800000, 0x3ecbbbce, 0x3d852a63, 0x3ba68116, 0x390aee49, 0xb684e21a)
_ERF_PA = _u32(0xbb1acdc6, 0x3ed46805, 0xbebe9208, 0x3ea2fe54, 0xbde31cc2, 0x3d1151b3, 0xbb0df9c0)
_ERF_QA = _u32(0x3f800000, 0x3dd9f331, 0x3f0a5785, 0x3d931ae7, 0x3e013307, 0x3c5f6e13, 0x3c445aa3)
_ERF_RA = _u32(0xbc21a093, 0xbf31a0b7, 0xc128f022, 0xc2798057, 0xc322658c, 0xc3389ae7, 0xc2a2932b, 0xc11d077e)
_ERF_SA = _u32(0x3f800000, 0x419d35ce, 0x4309a863, 0x43d9486f, 0x442158c9, 0x43d6810b, 0x42d9451f,
               0x40d23f7c, 0xbd777f97)
_ERF_RB = _u32(0xbc21a092, 0xbf4c9dd4, 0xc18e104b, 0xc320a2ea, 0xc41f6441, 0xc480230b, 0xc3f1c275)
_ERF_SB = _u32(0x3f800000, 0x41f2b459, 0x43a2e571, 0x44c01759, 0x4547fdbb, 0x451f90ce, 0x43ed43a7, 0xc1b38712)
_ERF_TINY = f32(1e-30)


def _poly32(s, coeffs):
    """coeffs[0] + s * (coeffs[1] + s * (...)), each step rounded to float32."""
    acc = np.full(s.shape, coeffs[-1], f32)
    for c in coeffs[-2::-1]:
        acc = c + s * acc
    return acc


def _glibc_erff(x):
    x = np.asarray(x, f32)
    out = np.empty_like(x)
    if not x.size:
        return out
    ix = x.view(np.uint32) & np.uint32(0x7fffffff)
    neg = np.signbit(x)
    a = np.abs(x)
    with np.errstate(all="ignore"):
        m = ix >= 0x7f800000                                      # +-1 + 1/x (NaN stays NaN)
        out[m] = np.where(neg[m], f32(-1), _ONE) + _ONE / x[m]
        m = ix < 0x04000000                                       # tiny: scaled to keep bits
        v = x[m]
        out[m] = f32(0.0625) * (f32(16) * v + (f32(16) * _ERF_EFX) * v)
        m = (ix >= 0x04000000) & (ix < 0x31800000)                # |x| < 2**-28
        v = x[m]
        out[m] = v + _ERF_EFX * v
        m = (ix >= 0x31800000) & (ix < 0x3f580000)                # |x| < 0.84375
        v = x[m]
        z = v * v
        out[m] = v + v * (_poly32(z, _ERF_PP) / _poly32(z, _ERF_QQ))
        m = (ix >= 0x3f580000) & (ix < 0x3fa00000)                # |x| < 1.25
        s = a[m] - _ONE
        pq = _poly32(s, _ERF_PA) / _poly32(s, _ERF_QA)
        out[m] = np.where(neg[m], -_ERF_ERX - pq, _ERF_ERX + pq)
        m = (ix >= 0x40c00000) & (ix < 0x7f800000)                # 6 <= |x| < inf
        out[m] = np.where(neg[m], _ERF_TINY - _ONE, _ONE - _ERF_TINY)
        m = (ix >= 0x3fa00000) & (ix < 0x40c00000)                # 1.25 <= |x| < 6
        v = a[m]
        s = _ONE / (v * v)
        near = ix[m] < 0x4036db6e                                 # |x| < 1/0.35
        rs = np.where(near, _poly32(s, _ERF_RA) / _poly32(s, _ERF_SA), _poly32(s, _ERF_RB) / _poly32(s, _ERF_SB))
        z = (v.view(np.uint32) & np.uint32(0xfffff000)).view(f32)
        r = _exp_glibc(-z * z - f32(0.5625)) * _exp_glibc((z - v) * (z + v) + rs)
        out[m] = np.where(neg[m], r / v - _ONE, _ONE - r / v)
    return out


_erff_tail = _glibc_erff


def _vec_erf(v):
    """Vectorized<float>::erf (AVX512)."""
    t = _ONE / fma32(_VEC_ERF_P, np.abs(v), _ONE)
    r = fma32(_VEC_ERF_POLY[4], t, _VEC_ERF_POLY[3])
    for c in _VEC_ERF_POLY[2::-1]:
        r = fma32(r, t, c)
    e = -expf(-(v * v))
    out = fma32(e * t, r, _ONE)
    return (out.view(np.uint32) ^ _sign_bits(v)).view(f32)


def gelu_erf(x):
    """GeluKernelImpl (none): x * 0.5 * (1 + erf(x * M_SQRT1_2))."""
    M = _math(x)
    half, one, alpha = M.t(0.5), M.t(1), M.gelu_alpha

    def make(erf):
        return lambda v: (v * half) * (one + erf(v * alpha))
    with np.errstate(all="ignore"):
        return _body_and_tail(x, make(M.erf), make(M.erf_tail), grain=_gelu_grain(x.size))


def gelu_erf_backward(grad, x):
    """GeluBackwardKernelImpl (none): dy * (cdf + x * pdf), cdf = 0.5 * (1 + erf(x * M_SQRT1_2)),
    pdf = beta * exp(x * x * -0.5); cdf + x * pdf fused in the vectorised body, not in the
    scalar loop (both measured)."""
    M = _math(x)
    half, one, alpha, beta = M.t(0.5), M.t(1), M.gelu_alpha, M.gelu_erf_beta

    def make(erf, exp, fused):
        def run(g, v):
            cdf = half * (one + erf(v * alpha))
            pdf = beta * exp((v * v) * M.t(-0.5))
            return g * (M.fma(v, pdf, cdf) if fused else cdf + v * pdf)
        return run
    with np.errstate(all="ignore"):
        return _body_and_tail2(grad, x, make(M.erf, M.exp, True), make(M.erf_tail, M.exp_tail, False))


# ---------------------------------------------------------------- gamma functions
# (float64 sin rounded differs from glibc's sinf in about 1% of trigamma's arguments)
_sinf = libm_float("sinf", np.sin, limit=1 << 22)
_PSI_A64 = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
            -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
            8.33333333333333333333E-2)
_PSI_A = tuple(f32(c) for c in _PSI_A64)


def _digamma_pos(v):
    """calc_digamma (ATen's Math.h) for float32 v >= 0 that is not 0: 1/v subtracted until
    v >= 10, then log(v) - 0.5/v - z * polevl(z, A), z = 1/v^2 (its steps fused), in float32."""
    if not v.size:
        return v.copy()
    dt = v.dtype.type
    fma = fma32 if dt is f32 else _fma64
    v = v.copy()
    res = np.zeros_like(v)
    low = v < 10
    while low.any():
        res[low] = res[low] - dt(1) / v[low]
        v[low] = v[low] + dt(1)
        low = v < 10
    with np.errstate(all="ignore"):
        z = dt(1) / (v * v)
        coeffs = _PSI_A if dt is f32 else _PSI_A64
        p = np.full(v.shape, dt(coeffs[0]), dt)
        for c in coeffs[1:]:
            p = fma(p, z, np.full(v.shape, dt(c), dt))
        y = np.where(v < dt(1e17), z * p, dt(0))
        out = ((res + (_glibc_logf(v) if dt is f32 else np.log(v))) - dt(0.5) / v) - y
    return np.where(v == 10, res + dt(2.25175258906672110764), out)


def digamma(x):
    """torch.digamma of float32 or float64 (calc_digamma element by element): +-inf at +-0, NaN at the
    negative integers, the reflection digamma(1 - x) - pi / tan(pi * frac(x)) (in double,
    rounded) below 0."""
    x = np.asarray(x)
    dt = np.float64 if x.dtype == np.float64 else f32
    x = x.astype(dt, copy=False)
    out = np.empty(x.shape, dt)
    if not x.size:
        return out
    with np.errstate(all="ignore"):
        neg = x < 0
        whole = x == np.trunc(x)
        out[~neg] = _digamma_pos(x[~neg])
        refl = neg & ~whole
        if refl.any():
            x64 = x[refl].astype(np.float64)
            pot = (np.pi / np.tan(np.pi * (x64 - np.trunc(x64)))).astype(dt)
            out[refl] = _digamma_pos(dt(1) - x[refl]) - pot
        out[neg & whole] = np.nan
        zero = x == 0
        out[zero] = np.copysign(dt(np.inf), -x[zero])
    return out


def trigamma(x):
    """polygamma(1, x) of float32 (ATen's calc_trigamma, scalar loop): the reflection with
    glibc's sinf below 0.5, six steps of 1/x^2, then the asymptotic series (its multiply-adds
    fused, as GCC compiles it) divided by x."""
    x = np.array(x, f32)
    if not x.size:
        return x
    sign = np.ones_like(x)
    res = np.zeros_like(x)
    with np.errstate(all="ignore"):
        small = x < f32(0.5)
        if small.any():
            s = _sinf(f32(math.pi) * x[small])
            res[small] = res[small] - (f32(math.pi) * f32(math.pi)) / (s * s)
            sign[small] = -1
            x[small] = f32(1) - x[small]
        for _ in range(6):
            res = res + f32(1) / (x * x)
            x = x + f32(1)
        ixx = f32(1) / (x * x)
        a = fma32(-ixx, np.full(x.shape, f32(1 / 42), f32), np.full(x.shape, f32(1 / 30), f32))
        b = fma32(-ixx, a, np.full(x.shape, f32(1 / 6), f32))
        t = fma32(ixx, b, f32(1) + f32(1) / (f32(2) * x))
        return sign * (res + t / x)


# ---------------------------------------------------------------- asinh, acosh, atanh, lgamma
# PyTorch 2.13's float32 asinh and acosh call std::asinh/std::acosh element by element (the
# C library's asinhf/acoshf, whatever the layout); atanh runs Sleef's atanhf (Sleef_atanhf8_u10
# / f16: xatanhf) in the vectorised body and libm's atanhf in the tail; lgamma runs Sleef's
# lgammaf (xlgammaf_u1) on every element, the tail padded into one more vector. Sleef's steps
# below (its logk2f, gammafk and sinpifk in double-float arithmetic, every fused multiply-add
# rounded once) are written after src/libm/sleefsimdsp.c and src/common/df.h (Sleef is
# Copyright Naoki Shibata and contributors, Boost Software License 1.0).

asinhf = libm_float("asinhf", np.arcsinh)
acoshf = libm_float("acoshf", np.arccosh)
_atanhf_tail = libm_float("atanhf", np.arctanh)


def _df_div(nx, ny, dx, dy):
    """dfdiv_vf2_vf2_vf2 (the fused-multiply-add form): (nx, ny) / (dx, dy)."""
    t = f32(1) / dx
    s = nx * t
    u = fma32(t, nx, -s)
    v = fma32(-dy, t, fma32(-dx, t, f32(1)))
    return s, fma32(s, v, fma32(ny, t, u))


def _df_add(xx, xy, yx, yy):
    """dfadd_vf2_vf2_vf2 (|x| >= |y|)."""
    s = xx + yx
    return s, (((xx - s) + yx) + xy) + yy


def _df_normalize(xx, xy):
    s = xx + xy
    return s, (xx - s) + xy


def _df_const(d):
    """vcast_vf2_d: a double as (float32, float32 of the rest)."""
    hi = f32(d)
    return hi, f32(d - float(hi))


def _logk2f(dx, dy):
    """Sleef's logk2f: log of a double-float as a double-float (dx > 0)."""
    _, ex = np.frexp(dx * _R075)
    e = (ex - 1).astype(np.int32)                              # vilogbk / vgetexp
    p = _pow2i(-e)
    mx, my = dx * p, dy * p                                   # dfscale
    ax, ay = _df_add2(mx, my, f32(-1))
    bx, by = _df_add2(mx, my, f32(1))
    xx, xy = _df_div(ax, ay, bx, by)
    x2x, x2y = _df_squ(xx, xy)
    t = np.full(dx.shape, f32(0.2392828464508056640625), f32)
    for c in (0.28518211841583251953125, 0.400005877017974853515625, 0.666666686534881591796875):
        t = fma32(t, x2x, f32(c))
    ef = e.astype(f32)
    sx, sy = _df_mul_f(np.full(dx.shape, _LN2_HI, f32), np.full(dx.shape, _LN2_LO, f32), ef)
    sx, sy = _df_add(sx, sy, xx * f32(2), xy * f32(2))
    cx, cy = _df_mul_f(*_df_mul(x2x, x2y, xx, xy), t)
    return _df_add(sx, sy, cx, cy)


def _xor_sign(v, neg):
    """v with its sign bit flipped where neg (Sleef's vmulsign / sign-bit xor)."""
    bits = v.view(np.uint32) ^ (neg.astype(np.uint32) << np.uint32(31))
    return bits.view(f32)


def _sleef_atanhf(x):
    with np.errstate(all="ignore"):
        y = np.abs(x)
        nx, ny = _two_sum(f32(1), y)
        dx, dy = _two_sum(f32(1), -y)
        lx, ly = _logk2f(*_df_div(nx, ny, dx, dy))
        r = (lx + ly) * f32(0.5)
        r = np.where(y == 1, f32(np.inf), r)
        r = np.where((y > 1) | np.isinf(x) | np.isnan(r), f32(np.nan), r)
        r = _xor_sign(r, np.signbit(x))
        r[np.isnan(x)] = np.nan
    return r


sleef_atanhf = _sleef_unary(_sleef_atanhf)


def atanhf(x):
    """torch.atanh of float32: Sleef's atanhf in the vectorised body, libm's in the tail."""
    return _body_and_tail(x, sleef_atanhf, _atanhf_tail)


def _sinpifk(d):
    """Sleef's sinpifk: sin(pi * d) as a double-float."""
    u = d * f32(4)
    with np.errstate(invalid="ignore"):
        ok = np.abs(u) < f32(2.0 ** 31)
        q = np.where(ok, u, 0).astype(np.int32)               # cvttps: truncation, else INT_MIN
    q[~ok] = np.iinfo(np.int32).min
    q = (q + (q >= 0).astype(np.int32)) & ~np.int32(1)
    o = (q & 2) == 2
    s = u - q.astype(f32)
    t = s
    s = s * s
    s2x, s2y = _df_mul_f(t, np.zeros_like(t), t)
    s2y = fma32(t, t, -s2x)
    u = np.where(o, f32(-0.2430611801e-7), f32(0.3093842054e-6))
    u = fma32(u, s, np.where(o, f32(0.3590577080e-5), f32(-0.3657307388e-4)))
    u = fma32(u, s, np.where(o, f32(-0.3259917721e-3), f32(0.2490393585e-2)))
    w = u * s                                                 # dfadd2_vf2_vf_vf2(w, c)
    cx, cy = np.where(o, f32(0.015854343771934509277), f32(-0.080745510756969451904)), \
        np.where(o, f32(4.4940051354032242811e-10), f32(-1.3373665339076936258e-09))
    xx = w + cx
    v = xx - w
    xy = ((w - (xx - v)) + (cx - v)) + cy
    cx, cy = np.where(o, f32(-0.30842512845993041992), f32(0.78539818525314331055)), \
        np.where(o, f32(-9.0728339030733922277e-09), f32(-2.1857338617566484855e-08))
    xx, xy = _df_add2_df(*_df_mul(s2x, s2y, xx, xy), cx, cy)
    xx, xy = _df_mul(xx, xy, np.where(o, s2x, t), np.where(o, s2y, f32(0)))
    px, py = _df_add2(xx, xy, f32(1))
    xx, xy = np.where(o, px, xx), np.where(o, py, xy)
    neg = (q & 4) == 4
    return _xor_sign(xx, neg), _xor_sign(xy, neg)


_GAMMA_U = (   # gammafk's polynomial in t: (x >= 2.3, 0.5 <= x <= 1.2, else)
    (0.000839498720672087279971000786, 0.9435157776e+0, 0.1102489550e-3),
    (-5.17179090826059219329394422e-05, 0.8670063615e+0, 0.8160019934e-4),
    (-0.000592166437353693882857342347, 0.4826702476e+0, 0.1528468856e-3),
    (6.97281375836585777403743539e-05, -0.8855129778e-1, -0.2355068718e-3),
    (0.000784039221720066627493314301, 0.1013825238e+0, 0.4962242092e-3),
    (-0.000229472093621399176949318732, -0.1493408978e+0, -0.1193488017e-2),
    (-0.002681327160493827160473958490, 0.1697509140e+0, 0.2891599433e-2),
    (0.003472222222222222222175164840, -0.2072454542e+0, -0.7385451812e-2),
    (0.083333333333333333335592087900, 0.2705872357e+0, 0.2058077045e-1))
_GAMMA_Z = ((-0.400686534596170958447352690395e+0, -0.673523028297382446749257758235e-1),
            (0.822466960142643054450325495997e+0, 0.322467033928981157743538726901e+0),
            (-0.577215665946766039837398973297e+0, 0.422784335087484338986941629852e+0))


def _sel3(o2, o0, c):
    return np.where(o2, f32(c[0]), np.where(o0, f32(c[1]), f32(c[2])))


def _gammafk(a):
    """Sleef's gammafk: (log of the main part, the rest) as two double-floats."""
    zero = np.zeros_like(a)
    otiny = np.abs(a) < f32(1e-30)
    oref = a < f32(0.5)
    rx, ry = _two_sum(f32(1), -a)
    xx = np.where(otiny, f32(0), np.where(oref, rx, a))
    xy = np.where(otiny | ~oref, f32(0), ry)
    o0 = (f32(0.5) <= xx) & (xx <= f32(1.2))
    o2 = f32(2.3) <= xx
    yx, yy = _df_normalize(*_df_mul(*_df_add2(xx, xy, f32(1)), xx, xy))
    yx, yy = _df_normalize(*_df_mul(*_df_add2(xx, xy, f32(2)), yx, yy))
    o = o2 & (xx <= f32(7))
    llnx, llny = np.where(o, yx, f32(1)), np.where(o, yy, f32(0))
    px, py = _df_add2(xx, xy, f32(3))
    xx, xy = np.where(o, px, xx), np.where(o, py, xy)
    t = np.where(o2, f32(1) / xx, _df_normalize(*_df_add2(xx, xy, np.where(o0, f32(-1), f32(-2))))[0])
    u = _sel3(o2, o0, _GAMMA_U[0])
    for c in _GAMMA_U[1:]:
        u = fma32(u, t, _sel3(o2, o0, c))
    lx, ly = _logk2f(xx, xy)
    yx, yy = _df_mul(*_df_add2(xx, xy, f32(-0.5)), lx, ly)
    yx, yy = _df_add2_df(yx, yy, -xx, -xy)
    yx, yy = _df_add2_df(yx, yy, *_df_const(0.91893853320467278056))     # log(2 pi) / 2
    ux = u * t                                                # dfmul_vf2_vf_vf(u, t)
    uy = fma32(u, t, -ux)
    zx, zy = _df_add2(ux, uy, np.where(o0, f32(_GAMMA_Z[0][0]), f32(_GAMMA_Z[0][1])))
    for c in _GAMMA_Z[1:]:
        zx, zy = _df_add2(*_df_mul_f(zx, zy, t), np.where(o0, f32(c[0]), f32(c[1])))
    zx, zy = _df_mul_f(zx, zy, t)
    clcx, clcy = np.where(o2, yx, zx), np.where(o2, yy, zy)
    dx_, dy_ = _df_add2(ux, uy, f32(1))
    lldx, lldy = np.where(o2, dx_, f32(1)), np.where(o2, dy_, f32(0))
    refx, refy = _df_add2_df(*_df_const(1.1447298858494001639), -clcx, -clcy)   # log(pi)
    tinyx, tinyy = _df_const(41.58883083359671856503)                         # log(2**60)
    clcx = np.where(otiny, tinyx, np.where(oref, refx, clcx))
    clcy = np.where(otiny, tinyy, np.where(oref, refy, clcy))
    nx = np.where(otiny, f32(1), np.where(oref, llnx, lldx))
    ny = np.where(otiny, f32(0), np.where(oref, llny, lldy))
    if oref.any():
        with np.errstate(invalid="ignore"):
            v = a * f32(1.0 / 4096)
            ok = np.abs(v) < f32(2.0 ** 31)
            q = np.where(ok, v, 0).astype(np.int32)
        q[~ok] = np.iinfo(np.int32).min
        sx, sy = _df_mul(lldx, lldy, *_sinpifk(a - f32(4096) * q.astype(f32)))
    else:
        sx = sy = zero
    ddx = np.where(otiny, a * f32(2.0 ** 60), np.where(oref, sx, llnx))
    ddy = np.where(otiny, f32(0), np.where(oref, sy, llny))
    return (clcx, clcy), _df_div(nx, ny, ddx, ddy)


def _sleef_lgammaf(a):
    with np.errstate(all="ignore"):
        (cx, cy), (bx, by) = _gammafk(a)
        lx, ly = _logk2f(np.abs(bx), _xor_sign(by, np.signbit(bx)))
        r = _df_add2_df(cx, cy, lx, ly)
        r = r[0] + r[1]
        bad = np.isinf(a) | ((a <= 0) & (np.trunc(a) == a)) | (np.isfinite(a) & np.isnan(r))
        r[bad] = np.inf
    return r


sleef_lgammaf = _sleef_unary(_sleef_lgammaf)


def lgammaf(x):
    """torch.lgamma of float32: Sleef's lgammaf on every element (the tail padded to a vector)."""
    return sleef_lgammaf(np.asarray(x, f32))


# ---------------------------------------------------------------- group_norm (GroupNormKernel.cpp)
# registered with REGISTER_DISPATCH only: AVX512 machines run its AVX2 build (8 float32 lanes).
# The fused multiply-adds below are where GCC contracts PyTorch's scalar expressions (found
# by measuring against PyTorch 2.13: every other choice differs somewhere).

def _bcast_fma(a, b, c):
    """fma(a, b, c) of float32 (or float64) arrays broadcast together."""
    dt = np.asarray(a).dtype if np.asarray(a).dtype == np.float64 else f32
    a, b, c = np.broadcast_arrays(np.asarray(a, dt), np.asarray(b, dt), np.asarray(c, dt))
    fma = fma32 if dt == f32 else _fma64
    return np.asarray(fma(np.ascontiguousarray(a), np.ascontiguousarray(b), np.ascontiguousarray(c)), dt)


def _fold_lanes(acc):
    """vec_reduce_all of a vector per row: float32 in halves (the AVX2 shuffles of its
    VecReduceAllSIMD), float64 lane after lane (the generic loop)."""
    if acc.dtype != np.float32:
        return np.add.accumulate(acc, axis=1)[:, -1]
    while acc.shape[1] > 1:
        half = acc.shape[1] // 2
        acc = acc[:, :half] + acc[:, half:]
    return acc[:, 0]


def vec_sum_rows(p, lanes=8):
    """vec::reduce_all (and map2_reduce_all of products already rounded) over each row of an
    AVX2 build (8 float32 / 4 float64 lanes): one vector of lanes added vector after vector,
    the partial last vector into the first lanes, then the lanes folded (_fold_lanes); rows
    shorter than a vector added one by one."""
    rows, n = p.shape
    if n < lanes:
        acc = p[:, 0].copy()
        for i in range(1, n):
            acc = acc + p[:, i]
        return acc
    full = n // lanes
    acc = np.add.accumulate(p[:, :full * lanes].reshape(rows, full, lanes), axis=1)[:, -1]
    rem = n - full * lanes
    if rem:
        acc[:, :rem] = acc[:, :rem] + p[:, full * lanes:]
    return _fold_lanes(acc)


def vec_dot_rows(a, b, lanes=8):
    """vec::map2_reduce_all of a * b with + over each row where the build fuses the product of
    the partial last vector into the sum (batch_norm's dot product; measured): the whole
    vectors' products rounded and added vector by vector, fma(a, b, acc) into the first
    lanes for the partial last one, the lanes folded (_fold_lanes); rows shorter than a vector:
    rounded products added in order."""
    fma = fma32 if a.dtype == np.float32 else _fma64
    rows, n = a.shape
    if n < lanes:
        return vec_sum_rows(a * b, lanes)
    full = n // lanes
    p = a[:, :full * lanes] * b[:, :full * lanes]
    acc = np.add.accumulate(p.reshape(rows, full, lanes), axis=1)[:, -1]
    rem = n - full * lanes
    if rem:
        acc[:, :rem] = fma(np.ascontiguousarray(a[:, full * lanes:]), np.ascontiguousarray(b[:, full * lanes:]),
                           np.ascontiguousarray(acc[:, :rem]))
    return _fold_lanes(acc)


def group_norm(x, weight, bias, groups, eps):
    """(y, mean, rstd) of float32 (float64) x of shape (N, C, *) as GroupNormKernelImplInternal: the
    moments of each group's row (RowwiseMoments), rstd = 1 / sqrt(var + eps) in double rounded
    to float, y = (x - mean) * rstd without weight and bias, else per channel
    scale = rstd * gamma, bias = fma(-scale, mean, beta), y = fma(scale, x, bias)."""
    dt = x.dtype.type
    n, c = x.shape[:2]
    d = c // groups
    hw = x.size // max(n * c, 1)
    rows = np.ascontiguousarray(x).reshape(n * groups, d * hw)
    mean, var = rowwise_moments(rows)
    with np.errstate(all="ignore"):
        rstd = (1.0 / np.sqrt(np.maximum(var, dt(0)).astype(np.float64) + eps)).astype(dt)
        if weight is None and bias is None:
            y = (rows - mean[:, None]) * rstd[:, None]
        else:
            gi = np.arange(n * groups) % groups
            gam = (np.ones(c, dt) if weight is None else weight.reshape(c)).reshape(groups, d)[gi]
            bet = (np.zeros(c, dt) if bias is None else bias.reshape(c)).reshape(groups, d)[gi]
            scale = rstd[:, None] * gam
            shift = _bcast_fma(-scale, mean[:, None], bet)
            y = _bcast_fma(scale[:, :, None], rows.reshape(n * groups, d, hw), shift[:, :, None])
    return y.reshape(x.shape), mean, rstd


def group_norm_backward(dy, x, mean, rstd, weight, groups, mask):
    """(dx, dgamma, dbeta) as GroupNormBackwardKernelImplInternal: per (n, c) ds = sum(dy * x)
    and db = sum(dy) (vec::map2_reduce_all, reduce_all); per group ds and db against gamma
    (fused into 8-lane vectors, the lanes added in order, the leftover channels fused),
    c2 = fma(db, mean, -ds) * rstd^3 / (D*HxW), c3 = fma(-db * rstd, 1 / (D*HxW), -c2 * mean),
    dx = fma(rstd * gamma, dy, c2 * x) + c3; dgamma adds fma(fma(-db, mean, ds), rstd, .)
    over the batch in order, dbeta db."""
    dt = x.dtype.type
    lanes = 8 if dt is f32 else 4
    n, c = x.shape[:2]
    d = c // groups
    hw = x.size // max(n * c, 1)
    xs = np.ascontiguousarray(x).reshape(n * c, hw)
    gs = np.ascontiguousarray(dy).reshape(n * c, hw)
    gx = gw = gb = None
    with np.errstate(all="ignore"):
        # float32's build does not fuse the partial last vector here, float64's does (measured)
        ds = (vec_sum_rows(gs * xs, lanes) if dt is f32 else vec_dot_rows(gs, xs, lanes)).reshape(n, groups, d)
        db = vec_sum_rows(gs, lanes).reshape(n, groups, d)
        m, r = mean.reshape(n, groups), rstd.reshape(n, groups)
        gam = (np.ones(c, dt) if weight is None else weight.reshape(c).astype(dt)).reshape(groups, d)
        if mask[0]:
            cut = d // lanes * lanes
            dsv, dbv = np.zeros((n, groups, lanes), dt), np.zeros((n, groups, lanes), dt)
            for j in range(0, cut, lanes):
                dsv = _bcast_fma(ds[:, :, j:j + lanes], gam[:, j:j + lanes], dsv)
                dbv = _bcast_fma(db[:, :, j:j + lanes], gam[:, j:j + lanes], dbv)
            dsval, dbval = np.zeros((n, groups), dt), np.zeros((n, groups), dt)
            for lane in range(lanes):
                dsval = dsval + dsv[:, :, lane]
                dbval = dbval + dbv[:, :, lane]
            for j in range(cut, d):
                dsval = _bcast_fma(ds[:, :, j], gam[:, j], dsval)
                dbval = _bcast_fma(db[:, :, j], gam[:, j], dbval)
            s = dt(1) / dt(d * hw)
            c2 = _bcast_fma(dbval, m, -dsval) * r * r * r * s
            c3 = _bcast_fma(-(dbval * r), s, -(c2 * m))
            c1 = r[:, :, None] * gam[None]
            xg = xs.reshape(n, groups, d, hw)
            gx = (_bcast_fma(c1[..., None], gs.reshape(n, groups, d, hw), c2[:, :, None, None] * xg)
                  + c3[:, :, None, None]).reshape(x.shape)
        if mask[1]:
            acc = np.zeros((groups, d), dt)
            for k in range(n):
                acc = _bcast_fma(_bcast_fma(-db[k], m[k][:, None], ds[k]), r[k][:, None], acc)
            gw = acc.reshape(c)
        if mask[2]:
            acc = np.zeros((groups, d), dt)
            for k in range(n):
                acc = acc + db[k]
            gb = acc.reshape(c)
    return gx, gw, gb


# ---------------------------------------------------------------- i0, i0e, i1, i1e (calc_i0 & co.)
# ATen's calc_i0, calc_i0e, calc_i1, calc_i1e (Math.h: Cephes' Chebyshev expansions for
# exp(-x) I0(x) and exp(-x) I1(x), on [0, 8] and on 8/x), element by element in the dtype,
# with the C library's exp; float32 takes a shorter i1 series. The coefficients are Cephes'
# (Cephes Math Library, Stephen L. Moshier, BSD licence), as ATen lists them.
_I0E_A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
          1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
          -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
          9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
          -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
          1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
          -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
          1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
          -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
          1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0E_B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
          3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
          1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
          -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
          7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
          -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
          3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
          2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
          8.04490411014108831608E-1)
_I1E_A = (2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
          -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
          3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
          -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
          9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
          -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
          4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
          -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
          2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
          -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_I1E_B = (7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
          -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
          -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
          4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
          -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
          3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
          -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
          -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
          7.78576235018280120474E-1)
_expf_libm = libm_float("expf", np.exp)


def _chbevl(y, coeffs, fused):
    """Cephes' chbevl in y's dtype: b0 = y * b1 - b2 + c (y * b1 - b2 fused where `fused`),
    then (b0 - b2) / 2."""
    dt = y.dtype.type
    fma = fma32 if dt is f32 else _fma64
    b0 = np.full(y.shape, dt(coeffs[0]), dt)
    b1 = np.zeros_like(y)
    b2 = b1
    for c in coeffs[1:]:
        b2, b1 = b1, b0
        b0 = (fma(y, b1, -b2) if fused else y * b1 - b2) + dt(c)
    return dt(0.5) * (b0 - b2)


def _bessel_parts(x, a, b):
    """|x|, the masks x <= 8 and above, and the two series at their arguments."""
    dt = x.dtype.type
    ax = np.abs(x)
    small = ax <= dt(8)
    with np.errstate(all="ignore"):
        ys = ax / dt(2) - dt(2)
        yl = dt(32) / ax - dt(2)
        sa = _chbevl(ys, a, True)
        sb = _chbevl(yl, b, True)
    return ax, small, sa, sb


def _exp_dtype(v):
    return _expf_libm(v) if v.dtype == np.float32 else np.exp(v)


def bessel_i0(x):
    """calc_i0: exp(x) * A(x/2 - 2) up to 8, exp(x) * B(32/x - 2) / sqrt(x) above."""
    ax, small, sa, sb = _bessel_parts(x, _I0E_A, _I0E_B)
    with np.errstate(all="ignore"):
        e = _exp_dtype(ax)
        return np.where(small, e * sa, e * sb / np.sqrt(ax))


def bessel_i0e(x):
    ax, small, sa, sb = _bessel_parts(x, _I0E_A, _I0E_B)
    with np.errstate(all="ignore"):
        return np.where(small, sa, sb / np.sqrt(ax))


def _i1_series(x):
    short = x.dtype == np.float32
    return (_I1E_A[-17:] if short else _I1E_A), (_I1E_B[-7:] if short else _I1E_B)


def bessel_i1(x):
    ax, small, sa, sb = _bessel_parts(x, *_i1_series(x))
    with np.errstate(all="ignore"):
        e = _exp_dtype(ax)
        out = np.where(small, e * ax * sa, e * sb / np.sqrt(ax))
    return np.where(x < 0, -out, out)


def bessel_i1e(x):
    ax, small, sa, sb = _bessel_parts(x, *_i1_series(x))
    with np.errstate(all="ignore"):
        out = np.where(small, sa * ax, sb / np.sqrt(ax))
    return np.where(x < 0, -out, out)


def sincf(x):
    """torch.sinc of float32 (sinc_kernel's scalar loop): 1 at 0, else sinf(pi * x) / (pi * x)
    with pi * x rounded to float and the C library's sinf."""
    with np.errstate(all="ignore"):
        product = f32(math.pi) * x
        out = _sinf(product) / product
    return np.where(x == 0, f32(1), out)


def entrf(x):
    """special.entr of float32: -x * logf(x) above 0 (the C library's logf), 0 at 0, -inf below,
    NaN kept."""
    with np.errstate(all="ignore"):
        out = -x * _logf_libm(np.where(x > 0, x, f32(1)))
    out = np.where(x > 0, out, np.where(x == 0, f32(0), f32(-np.inf)))
    return np.where(np.isnan(x), x, out)


_logf_libm = libm_float("logf", np.log)


# ---------------------------------------------------------------- ndtri (calc_ndtri)
# ATen's calc_ndtri (Math.h, after Cephes' ndtri): rational approximations in the dtype, the
# polynomials evaluated with fused multiply-adds (polevl), ::log and ::sqrt in double.
# The coefficients are Cephes' (Cephes Math Library, Stephen L. Moshier, BSD licence).
_NDTRI_P0 = (-5.99633501014107895267E1, 9.80010754185999661536E1, -5.66762857469070293439E1,
             1.39312609387279679503E1, -1.23916583867381258016E0)
_NDTRI_Q0 = (1.0, 1.95448858338141759834E0, 4.67627912898881538453E0, 8.63602421390890590575E1,
             -2.25462687854119370527E2, 2.00260212380060660359E2, -8.20372256168333339912E1,
             1.59056225126211695515E1, -1.18331621121330003142E0)
_NDTRI_P1 = (4.05544892305962419923E0, 3.15251094599893866154E1, 5.71628192246421288162E1,
             4.40805073893200834700E1, 1.46849561928858024014E1, 2.18663306850790267539E0,
             -1.40256079171354495875E-1, -3.50424626827848203418E-2, -8.57456785154685413611E-4)
_NDTRI_Q1 = (1.0, 1.57799883256466749731E1, 4.53907635128879210584E1, 4.13172038254672030440E1,
             1.50425385692907503408E1, 2.50464946208309415979E0, -1.42182922854787788574E-1,
             -3.80806407691578277194E-2, -9.33259480895457427372E-4)
_NDTRI_P2 = (3.23774891776946035970E0, 6.91522889068984211695E0, 3.93881025292474443415E0,
             1.33303460815807542389E0, 2.01485389549179081538E-1, 1.23716634817820021358E-2,
             3.01581553508235416007E-4, 2.65806974686737550832E-6, 6.23974539184983293730E-9)
_NDTRI_Q2 = (1.0, 6.02427039364742014255E0, 3.67983563856160859403E0, 1.37702099489081330271E0,
             2.16236993594496635890E-1, 1.34204006088543189037E-2, 3.28014464682127739104E-4,
             2.89247864745380683936E-6, 6.79019408009981274425E-9)


def _polevl(x, coeffs):
    """Cephes' polevl in x's dtype, each step r * x + c fused."""
    dt = x.dtype.type
    fma = fma32 if dt is f32 else _fma64
    r = np.zeros_like(x)
    for c in coeffs:
        r = fma(r, x, np.full(x.shape, dt(c), x.dtype))
    return r


def ndtri(y0):
    """special.ndtri of float32 or float64 (calc_ndtri element by element)."""
    dt = y0.dtype.type
    fma = fma32 if dt is f32 else _fma64
    with np.errstate(all="ignore"):
        code = ~(y0 > dt(1) - dt(0.13533528323661269189))
        y = np.where(code, y0, dt(1) - y0)
        mid = y > dt(0.13533528323661269189)
        ym = y - dt(0.5)
        y2 = ym * ym
        inner = y2 * _polevl(y2, _NDTRI_P0) / _polevl(y2, _NDTRI_Q0)
        xm = fma(ym, inner, ym) * dt(2.50662827463100050242E0)
        x = np.sqrt(-2.0 * np.log(np.where(mid, dt(0.5), y).astype(np.float64))).astype(dt)
        x64 = x.astype(np.float64)
        x0 = (x64 - np.log(x64) / x64).astype(dt)
        z = dt(1) / x
        near = x < dt(8)
        x1 = np.where(near, z * _polevl(z, _NDTRI_P1) / _polevl(z, _NDTRI_Q1),
                      z * _polevl(z, _NDTRI_P2) / _polevl(z, _NDTRI_Q2))
        xt = x0 - x1
        out = np.where(mid, xm, np.where(code, -xt, xt))
        out = np.where(y0 == 0, dt(-np.inf), np.where(y0 == 1, dt(np.inf), out))
        out = np.where((y0 < 0) | (y0 > 1) | np.isnan(y0), dt(np.nan), out)
    return out.astype(dt, copy=False)


# ---------------------------------------------------------------- float64: Sleef's double functions
# Vectorized<double> computes exp, log, expm1, log1p, sinh, cosh, tanh, exp2, atanh and erf
# with Sleef's Sleef_<name>d4_u10 (d8 on AVX512; the same bits), pow, atan2 and hypot with
# Sleef_powd4_u10, Sleef_atan2d4_u10 and Sleef_hypotd4_u05; cpu_kernel_vec's scalar tail
# calls std::NAME(double), the C library's. Both run in C (_kernels.sleef64 / libm64, lane by
# lane); without the C module, NumPy's functions (last bits may differ).
SLEEF64 = ("exp", "log", "expm1", "log1p", "sinh", "cosh", "tanh", "exp2", "atanh", "erf", "lgamma")
SLEEF64_2 = ("pow", "atan2", "hypot")
LIBM64 = SLEEF64 + ("cos", "sin")      # the C library's double functions _kernels.libm64 calls
HAS_C64 = _HAS_C64 = _C is not None and hasattr(_C, "sleef64")


def _lgamma_np(x):
    f = np.vectorize(lambda v: math.inf if v <= 0 and v == math.floor(v) else math.lgamma(v), otypes=[np.float64])
    return f(x) if x.size else x.copy()


def _erf_np(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x) if x.size else x.copy()


_NP64 = {"exp": np.exp, "log": np.log, "expm1": np.expm1, "log1p": np.log1p, "sinh": np.sinh, "cosh": np.cosh,
         "tanh": np.tanh, "exp2": np.exp2, "atanh": np.arctanh, "erf": _erf_np, "lgamma": _lgamma_np,
         "pow": np.power, "atan2": np.arctan2, "hypot": np.hypot, "cos": np.cos, "sin": np.sin}


def _c64(name, sleef):
    """float64 array -> NAME of each element: Sleef's (sleef) or libm's, in C; NumPy's without it."""
    fallback = _NP64[name]
    if not _HAS_C64:
        def run(x):
            with np.errstate(all="ignore"):
                return fallback(np.asarray(x, np.float64))
        return run
    code = LIBM64.index(name)
    fn = _C.sleef64 if sleef else _C.libm64

    def run(x):
        x = np.asarray(x, np.float64)
        src = x if x.flags.c_contiguous else np.ascontiguousarray(x)
        out = np.empty(x.shape, np.float64)
        if x.size:
            fn(code, src.reshape(-1), out.reshape(-1))
        return out
    return run


def _c64_2(name, sleef):
    """As _c64 for the functions of two same-shaped float64 arrays."""
    fallback = _NP64[name]
    if not _HAS_C64:
        def run(a, b):
            with np.errstate(all="ignore"):
                return fallback(np.asarray(a, np.float64), np.asarray(b, np.float64))
        return run
    code = SLEEF64_2.index(name)
    fn = _C.sleef64_2 if sleef else _C.libm64_2

    def run(a, b):
        a, b = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64))
        out = np.empty(a.shape, np.float64)
        if a.size:
            fn(code, np.ascontiguousarray(a).reshape(-1), np.ascontiguousarray(b).reshape(-1), out.reshape(-1))
        return out
    return run


sleef64 = {name: _c64(name, True) for name in SLEEF64}
libm64 = {name: _c64(name, False) for name in LIBM64}
sleef64.update({name: _c64_2(name, True) for name in SLEEF64_2})
libm64.update({name: _c64_2(name, False) for name in SLEEF64_2})


def unary64(name):
    """torch.NAME of a float64 array as cpu_kernel_vec runs it: Sleef's function in the
    vectorised body (blocks of two Vectorized<double>), libm's in the scalar tail."""
    vector, scalar = sleef64[name], libm64[name]

    def run(x):
        return body_and_tail(x, vector, scalar)
    run.__name__ = name
    return run


class _Math:
    """The functions a kernel of one dtype calls: Sleef's (vectorised body) and the C
    library's (scalar tail), the dtype's fused multiply-add and its constants."""
    def __init__(self, t, fma, **fns):
        self.t, self.fma = t, fma
        self.__dict__.update(fns)


_M32 = _Math(f32, fma32, exp=expf, exp_tail=_exp_glibc, log1p=sleef_log1pf, log1p_tail=_log1pf_tail,
             expm1=sleef_expm1f, expm1_tail=_expm1f_tail, tanh=sleef_tanhf, tanh_tail=_tanhf_tail,
             exp2=sleef_exp2f, exp2_tail=_glibc_exp2f, gelu_beta=_GELU_BETA, erf=_vec_erf, erf_tail=_erff_tail,
             gelu_alpha=_GELU_ALPHA, gelu_erf_beta=_GELU_ERF_BETA)
# kBeta = M_SQRT2 * M_2_SQRTPI * 0.5 in double
def fma64(a, b, c):
    """a*b + c rounded once, float64 arrays (C's fma where the module is built)."""
    return _fma64c(a, b, c)


def _fma64c(a, b, c):
    """a*b + c rounded once, float64 (C's fma where the module is built: exact)."""
    if not _HAS_C64:
        return _fma64(a, b, c)
    a, b, c = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64), np.asarray(c, np.float64))
    out = np.empty(a.shape, np.float64)
    if a.size:
        _C.fma64(*(np.ascontiguousarray(v).reshape(-1) for v in (a, b, c)), out.reshape(-1))
    return out


_M64 = _Math(np.float64, _fma64c, exp=sleef64["exp"], exp_tail=libm64["exp"], log1p=sleef64["log1p"],
             log1p_tail=libm64["log1p"], expm1=sleef64["expm1"], expm1_tail=libm64["expm1"], tanh=sleef64["tanh"],
             tanh_tail=libm64["tanh"], exp2=sleef64["exp2"], exp2_tail=libm64["exp2"],
             gelu_beta=1.41421356237309504880 * 1.12837916709551257390 * 0.5, erf=sleef64["erf"],
             erf_tail=libm64["erf"], gelu_alpha=0.70710678118654752440,
             gelu_erf_beta=1.12837916709551257390 * 0.70710678118654752440 * 0.5)


def _math(x):
    """_M64 for a float64 array, else _M32 (float32)."""
    return _M64 if x.dtype == np.float64 else _M32


def pow64(x, y):
    """float64 x ** y (arrays of one shape, or a 0-d one) as PyTorch's pow kernel: Sleef's pow
    in the vectorised body, std::pow (libm's) in the tail."""
    with np.errstate(all="ignore"):
        return _body_and_tail2(np.asarray(x, np.float64), np.asarray(y, np.float64), sleef64["pow"], libm64["pow"])


def pow_scalar64(x, b):
    """float64 x ** b for an exponent PyTorch's pow kernel does not special-case."""
    return body_and_tail(x, lambda v: sleef64["pow"](v, np.full(v.shape, float(b))),
                         lambda v: libm64["pow"](v, np.full(v.shape, float(b))))


def hypot64(x, y):
    """float64 hypot: Sleef's hypot (u05) in the vectorised body, libm's in the tail."""
    with np.errstate(all="ignore"):
        return _body_and_tail2(np.asarray(x, np.float64), np.asarray(y, np.float64), sleef64["hypot"],
                               libm64["hypot"])


def _special_c(code, fallback):
    """PyTorch's calc_erfcx (code 0) or calc_log_ndtr (1) of a float32 or float64 array, in C
    (_kernels.special32 / special64); `fallback` (float64, rounded once) without it."""
    def run(x):
        if _C is None or not hasattr(_C, "special64") or x.dtype not in (f32, np.float64):
            with np.errstate(all="ignore"):
                return np.asarray(fallback(x.astype(np.float64))).astype(x.dtype)
        fn = _C.special64 if x.dtype == np.float64 else _C.special32
        src = np.ascontiguousarray(x)
        out = np.empty(x.shape, x.dtype)
        if x.size:
            fn(code, src.reshape(-1), out.reshape(-1))
        return out
    return run


def erfcx(x, fallback):
    """torch.special.erfcx: Johnson's Faddeeva erfcx as PyTorch's calc_erfcx computes it."""
    return _special_c(0, fallback)(x)


def log_ndtr(x, fallback):
    """torch.special.log_ndtr: PyTorch's calc_log_ndtr (log(erfcx(-t) / 2) - t*t below -1,
    log1p(-erfc(t) / 2) above, t = x / sqrt(2))."""
    return _special_c(1, fallback)(x)
