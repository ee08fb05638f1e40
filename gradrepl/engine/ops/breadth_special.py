"""torch.special's orthogonal polynomials, Bessel and Airy functions, spherical_bessel_j0,
round and the Hurwitz zeta function (issue 14).

Only zeta is differentiable in PyTorch (in its second argument; SpecialZetaBackward0/1/2):
the other outputs never require grad.

The polynomials run PyTorch's recurrences in the input's dtype, step by step, with its
special cases (|x| == 1, the trigonometric closed forms for large n), so float32 results
round as PyTorch's do. The Bessel functions are evaluated in float64 and rounded once:
for |x| < 25 from trapezoidal sums of their integral representations (exponentially
accurate for periodic and for doubly-exponentially decaying integrands; Y0 and Y1 from
Neumann's series in J_m), beyond from Hankel's asymptotic expansions (whose smallest term
is about exp(-2|x|)). PyTorch evaluates Cephes' rational approximations in the input's
dtype, so float32 results may differ from its in the last bit; its float64 J and Y are
accurate to about 1e-8 (1e-7 beyond |x| = 5), gradrepl's to rounding. Ai(x) comes from
K_(1/3) for x > 1, from its power series on [-8, 1] and from its oscillating expansion
below. zeta is Euler-Maclaurin's sum in float64, as PyTorch's (double for float32 too).
"""
import math

import numpy as np

from gradrepl.engine import creation
from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import GRAD, Node, SavedOutput, edge_of
from gradrepl.engine import cephes, kernels
from gradrepl.engine.kernels import libm_float
from gradrepl.engine.ops import linalg_ext, nn_extra
from gradrepl.engine.ops.common import result
from gradrepl.engine.ops.inplace import binary_inplace
from gradrepl.engine.ops.linalg_ext import LINALG
from gradrepl.engine.ops.registry import RESULT, declare, rule
from gradrepl.engine.ops.arrange import bmm
from gradrepl.engine.ops.shape import cat
from gradrepl.engine.ops.sorting import returns
from gradrepl.engine.ops.special import SPECIAL
from gradrepl.engine.rng import _fma64
from gradrepl.engine.rounding import fma32
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import pytype, shape_list, warn

_CHUNK = 4096          # elements per block of the quadratures (their grids are elements x nodes)
_ASYMPTOTIC = 25.0     # |x| from which Hankel's expansions are used
_EULER = 0.5772156649015329


# ================================================================ operands
def _unary_operand(x, name):
    if type(x) is not Tensor:
        raise TypeError(f"special_{name}(): argument 'input' (position 1) must be Tensor, not {pytype(x)}")
    a = x._a
    if a.dtype.kind not in "fV":
        a = a.astype(D.DEFAULT_FLOAT[0].np)
    return a


def _number(v):
    return isinstance(v, (bool, int, float))


def _binary_operands(x, n, name):
    """PyTorch's (Tensor x, Tensor n), (Number x, Tensor n), (Tensor x, Number n): both in
    the promoted floating dtype."""
    if not (type(x) is Tensor or type(n) is Tensor) or not (type(x) is Tensor or _number(x)) \
            or not (type(n) is Tensor or _number(n)):
        raise TypeError(f"special_{name}() received an invalid combination of arguments - got "
                        f"({pytype(x)}, {pytype(n)}), but expected one of:\n"
                        " * (Tensor x, Tensor n, *, Tensor out = None)\n"
                        " * (Number x, Tensor n, *, Tensor out = None)\n"
                        " * (Tensor x, Number n, *, Tensor out = None)")
    dt = D.result_type((x, n))
    if not dt.is_floating_point:
        dt = D.DEFAULT_FLOAT[0]
    xa = np.asarray(x._a if type(x) is Tensor else x).astype(dt.np)
    na = np.asarray(n._a if type(n) is Tensor else n).astype(dt.np)
    xa, na = np.broadcast_arrays(xa, na)
    return xa, na


def _degrees(n):
    """static_cast<int64_t>(n): truncation; NaN and infinities become negative (x86's
    conversion gives INT64_MIN), so their polynomials are 0."""
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(n) | (np.abs(n) >= 2.0 ** 62)
        return np.where(bad, -1, np.trunc(np.where(bad, 0, n))).astype(np.int64)


_LIBM_NAMES = {np.arccos: "acosf", np.cos: "cosf", np.sin: "sinf"}


def _f(dt, fn, x):
    """std::acos & co. in dtype dt: the C library's float function for float32 (not always
    correctly rounded), float64 otherwise."""
    x = np.asarray(x)
    if dt == np.float32:
        return libm_float(_LIBM_NAMES[fn], fn)(x.astype(np.float32))
    with np.errstate(all="ignore"):
        return fn(x.astype(np.float64)).astype(dt)


def _fma(a, b, c):
    """a * b + c rounded once: GCC contracts PyTorch's `a * b - c` of these kernels into a
    fused multiply-add (in float64 as in float32)."""
    if np.result_type(a, b, c) == np.float32:
        return fma32(*np.broadcast_arrays(np.asarray(a, np.float32), np.asarray(b, np.float32),
                                          np.asarray(c, np.float32)))
    return _fma64(a, b, c)


# ================================================================ the polynomials
def _recurrence(x, k, q1, step, run, nan_stop):
    """q_1 = q1, q_{i+1} = step(x, i as x's dtype, q_i, q_{i-1}) for i = 1 .. k - 1 where run."""
    dt = x.dtype
    p = np.ones_like(x)
    q = q1.copy()
    count = np.where(run, k - 1, 0)
    top = int(count.max()) if count.size else 0
    with np.errstate(all="ignore"):
        for i in range(1, top + 1):
            active = count >= i
            if nan_stop:
                active &= ~np.isnan(q)
            if not active.any():
                break
            r = step(x, dt.type(i), q, p)
            p = np.where(active, q, p)
            q = np.where(active, r, q)
    return q


def _polynomial(name, cases, first, step, nan_stop=True, limit=None):
    """cases(x, n, dt) -> (mask, value) pairs in PyTorch's order; then n == 0 gives 1,
    n == 1 first(x), larger n the recurrence (limit: n above it gives NaN, by dtype)."""
    def forward(x, n, *, out=None):
        x, nn = _binary_operands(x, n, name)
        k = _degrees(nn)
        dt = x.dtype
        res = np.empty(x.shape, dt)
        done = np.zeros(x.shape, bool)
        with np.errstate(all="ignore"):
            q1 = np.asarray(first(x), dt)
            pairs = list(cases(x, k, dt)) + [(k == 0, 1), (k == 1, q1)]
            if limit is not None:
                pairs.append((k > limit[dt.itemsize], np.nan))
            for mask, value in pairs:
                take = mask & ~done
                res[take] = np.broadcast_to(np.asarray(value).astype(dt), x.shape)[take]
                done |= take
        run = ~done
        if run.any():
            res[run] = _recurrence(x, k, q1, step, run, nan_stop)[run]
        return _new(res)
    forward.__name__ = forward.__qualname__ = name
    declare("special_" + name, forward, method=False, function=False)
    SPECIAL[name] = forward
    return forward


def _T(dt, v):
    return np.asarray(v).astype(dt)


def _by_parity(k, dt, even, odd):
    return np.where(k % 2 == 0, _T(dt, even), _T(dt, odd))


def _t_closed(y, k, dt):
    return _f(dt, np.cos, _T(dt, k) * _f(dt, np.arccos, y))


def _u_closed(y, k, dt):
    ac = _f(dt, np.arccos, y)
    s = _f(dt, np.sin, ac)
    n1 = _T(dt, k + 1)
    return np.where(s != 0, _f(dt, np.sin, n1 * ac) / s, n1 * _f(dt, np.cos, n1 * ac) / y)


def _v_closed(y, k, dt):
    ac = _f(dt, np.arccos, y)
    half = ac / dt.type(2)
    two = _T(dt, k + k + 1)
    return np.where(_f(dt, np.sin, half) != 1, _f(dt, np.cos, (_T(dt, k) + dt.type(0.5)) * ac) / _f(dt, np.cos, half),
                    _by_parity(k, dt, two, -two))


def _w_closed(y, k, dt, otherwise):
    ac = _f(dt, np.arccos, y)
    half = ac / dt.type(2)
    return np.where(_f(dt, np.cos, half) != 1, _f(dt, np.sin, (_T(dt, k) + dt.type(0.5)) * ac) / _f(dt, np.sin, half),
                    otherwise)


def _cheb_step(x, kf, q, p):
    return _fma(x + x, q, -p)


def _shifted(x):
    return x + x - x.dtype.type(1)


def _shifted_step(x, kf, q, p):
    y = _shifted(x)
    return _fma(y + y, q, -p)


def _t_cases(x, k, dt):
    return [(k < 0, 0), (np.abs(x) == 1, np.where((x > 0) | (k % 2 == 0), 1, -1)),
            ((k > 6) & (np.abs(x) < 1), _t_closed(x, k, dt))]


def _u_cases(x, k, dt):
    n1 = _T(dt, k + 1)
    return [(k < 0, 0), (np.abs(x) == 1, np.where((x > 0) | (k % 2 == 0), n1, -n1)),
            ((k > 8) & (np.abs(x) < 1), _u_closed(x, k, dt))]


def _v_cases(x, k, dt):
    two = _T(dt, k + k + 1)
    return [(k < 0, 0), (np.abs(x) == 1, np.where(x > 0, _T(dt, 1), _by_parity(k, dt, two, -two))),
            ((k > 8) & (np.abs(x) < 1), _v_closed(x, k, dt))]


def _w_cases(x, k, dt):
    at_one = np.where(x > 0, _T(dt, k + k + 1), _by_parity(k, dt, 1, -1))
    return [(k < 0, 0), (np.abs(x) == 1, at_one), ((k > 8) & (np.abs(x) < 1), _w_closed(x, k, dt, at_one))]


def _st_cases(x, k, dt):
    y = _shifted(x)
    return [(k < 0, 0), (x == 1, 1), (x == 0, _by_parity(k, dt, 1, -1)),
            ((k > 6) & (np.abs(y) < 1), _t_closed(y, k, dt))]


def _su_cases(x, k, dt):
    y = _shifted(x)
    n1 = _T(dt, k + 1)
    return [(k < 0, 0), (x == 1, n1), (x == 0, _by_parity(k, dt, n1, -n1)),
            ((k > 6) & (np.abs(y) < 1), _u_closed(y, k, dt))]


def _sv_cases(x, k, dt):
    y = _shifted(x)
    two = _T(dt, k + k + 1)
    return [(k < 0, 0), (x == 1, 1), (x == 0, _by_parity(k, dt, two, -two)),
            ((k > 6) & (np.abs(y) < 1), _v_closed(y, k, dt))]


def _sw_cases(x, k, dt):
    y = _shifted(x)
    return [(k < 0, 0), (x == 1, _T(dt, k + k + 1)), (x == 0, _by_parity(k, dt, 1, -1)),
            ((k > 4) & (np.abs(y) < 1), _w_closed(y, k, dt, _by_parity(k, dt, 1, -1)))]


def _no_cases(x, k, dt):
    return [(k < 0, 0)]


def _one_at_zero(x, k, dt):
    return [(k < 0, 0), (x == 0, 1)]


def _legendre_cases(x, k, dt):
    return [(k < 0, 0), (np.abs(x) == 1, np.where((x > 0) | (k % 2 == 0), 1, -1))]


_polynomial("chebyshev_polynomial_t", _t_cases, lambda x: x, _cheb_step)
_polynomial("chebyshev_polynomial_u", _u_cases, lambda x: x + x, _cheb_step)
_polynomial("chebyshev_polynomial_v", _v_cases, lambda x: x + x - x.dtype.type(1), _cheb_step)
_polynomial("chebyshev_polynomial_w", _w_cases, lambda x: x + x + x.dtype.type(1), _cheb_step)
_polynomial("shifted_chebyshev_polynomial_t", _st_cases, _shifted, _shifted_step)
_polynomial("shifted_chebyshev_polynomial_u", _su_cases, lambda x: _shifted(x) + _shifted(x), _shifted_step)
_polynomial("shifted_chebyshev_polynomial_v", _sv_cases, lambda x: _shifted(x) + _shifted(x) - x.dtype.type(1),
            _shifted_step)
_polynomial("shifted_chebyshev_polynomial_w", _sw_cases, lambda x: _shifted(x) + _shifted(x) + x.dtype.type(1),
            _shifted_step)
# H: k runs 2, 4, ..., 2n - 2 (k = 2i); He: k = i; both NaN past 128 (float32) / 512 (float64)
_polynomial("hermite_polynomial_h", _no_cases, lambda x: x + x,
            lambda x, kf, q, p: _fma(x + x, q, -((kf + kf) * p)), nan_stop=False, limit={2: 128, 4: 128, 8: 512})
_polynomial("hermite_polynomial_he", _no_cases, lambda x: x,
            lambda x, kf, q, p: _fma(x, q, -(kf * p)), nan_stop=False, limit={2: 128, 4: 128, 8: 512})
_polynomial("laguerre_polynomial_l", _one_at_zero, lambda x: x.dtype.type(1) - x,
            lambda x, kf, q, p: _fma((kf + kf) + (x.dtype.type(1) - x), q, -(kf * p)) / (kf + x.dtype.type(1)))
_polynomial("legendre_polynomial_p", _legendre_cases, lambda x: x,
            lambda x, kf, q, p: _fma((kf + kf + x.dtype.type(1)) * x, q, -(kf * p)) / (kf + x.dtype.type(1)))


def _round(input, *, decimals=0):
    return input.round(decimals=decimals)


def _spherical_bessel_j0(input):
    x = _unary_operand(input, "spherical_bessel_j0")
    dt = x.dtype
    t = dt.type
    with np.errstate(all="ignore"):
        xx = x * x
        series = t(1) / t(6227020800)      # PyTorch's Horner steps, each a fused multiply-add
        for c in (t(-1) / t(39916800), t(1) / t(362880), t(-1) / t(5040), t(1) / t(120), t(-1) / t(6), t(1)):
            series = _fma(xx, series, c)
        out = np.where(np.isinf(x), t(0), np.where(np.abs(x) < t(0.5), series, _f(dt, np.sin, x) / x))
    return _new(np.asarray(out, dt))


declare("special_spherical_bessel_j0", _spherical_bessel_j0, method=False, function=False)
SPECIAL.update(round=_round, spherical_bessel_j0=_spherical_bessel_j0)


# ================================================================ Bessel functions (float64)
def _asymptotic_terms(x, nu, count=28):
    """Hankel's a_k(nu) / x^k for k = 0 .. count - 1 (a list of arrays)."""
    mu = 4.0 * nu * nu
    terms = [np.ones_like(x)]
    for k in range(1, count):
        terms.append(terms[-1] * (mu - (2 * k - 1) ** 2) / (8.0 * k * x))
    return terms


def _hankel_pq(x, nu):
    terms = _asymptotic_terms(x, nu)
    p = sum(t * (-1) ** (k // 2) for k, t in enumerate(terms) if k % 2 == 0)
    q = sum(t * (-1) ** (k // 2) for k, t in enumerate(terms) if k % 2 == 1)
    return p, q


def _jy_large(x, n):
    """J_n(x), Y_n(x) for x >= 25 (n = 0, 1): cos/sin of x - (n/2 + 1/4) pi expanded, so
    that only x itself is reduced (no rounding of x - phase for large x)."""
    p, q = _hankel_pq(x, n)
    phase = (n / 2 + 0.25) * math.pi
    c, s = np.cos(x), np.sin(x)
    cos_chi = c * math.cos(phase) + s * math.sin(phase)
    sin_chi = s * math.cos(phase) - c * math.sin(phase)
    scale = np.sqrt(2.0 / (math.pi * x))
    return scale * (p * cos_chi - q * sin_chi), scale * (p * sin_chi + q * cos_chi)


_NODES = 192          # trapezoid nodes on [0, 2 pi): J_m exact to rounding for m <= 71 and |x| < 25
_ORDERS = 72
_THETA = 2 * math.pi * np.arange(_NODES) / _NODES
_COS_M = np.cos(np.outer(np.arange(_ORDERS), _THETA))
_SIN_M = np.sin(np.outer(np.arange(_ORDERS), _THETA))


def _j_table(x):
    """J_0 .. J_71 at x (|x| < 25), rows by order: the trapezoidal sum of
    (1 / 2 pi) * integral of cos(m theta - x sin theta) over a period."""
    xs = np.outer(np.sin(_THETA), x)
    return (_COS_M @ np.cos(xs) + _SIN_M @ np.sin(xs)) / _NODES


def _chunks(fn, x):
    out = np.empty(x.shape, np.float64)
    flat, res = x.ravel(), out.ravel()
    for start in range(0, flat.size, _CHUNK):
        res[start:start + _CHUNK] = fn(flat[start:start + _CHUNK])
    return out


def _small_large(x, small, large, edge=_ASYMPTOTIC):
    """small(|x| < edge) and large(|x| >= edge) on x's elements (float64 arrays)."""
    out = np.full(x.shape, np.nan)
    near = np.abs(x) < edge
    far = ~near & ~np.isnan(x)
    if near.any():
        out[near] = _chunks(small, x[near])
    if far.any():
        out[far] = large(x[far])
    return out


def _series(x, order, sign):
    """J_order (sign -1) or I_order (sign +1) at |x| < 2 from the power series."""
    term = (x / 2) ** order
    total = term.copy()
    quarter = sign * x * x / 4
    for k in range(1, 30):
        term = term * quarter / (k * (k + order))
        total = total + term
    return total


def _small(table_row, order, sign):
    def small(v):
        out = table_row(v)
        near = np.abs(v) < 2
        out[near] = _series(v[near], order, sign)
        return out
    return small


def _j0(x):
    out = _small_large(np.abs(x), _small(lambda v: _j_table(v)[0], 0, -1), lambda v: _jy_large(v, 0)[0])
    return np.where(np.isinf(x), np.nan, out)     # PyTorch's NaN at the infinities


def _j1(x):
    out = np.sign(x) * _small_large(np.abs(x), _small(lambda v: _j_table(v)[1], 1, -1),
                                    lambda v: _jy_large(v, 1)[0])
    return np.where(np.isinf(x), np.nan, out)


def _neumann(v, order):
    """Y_0 or Y_1 at 0 < v < 25 from Neumann's series in J_m (Y_1 = -Y_0')."""
    j = _j_table(v)
    log_term = np.log(v / 2) + _EULER
    k = np.arange(1, 35)[:, None]
    sign = (-1.0) ** k
    if order == 0:
        return 2 / math.pi * (log_term * j[0] - 2 * (sign * j[2 * k[:, 0]] / k).sum(0))
    return 2 / math.pi * (log_term * j[1] - j[0] / v + (sign * (j[2 * k[:, 0] - 1] - j[2 * k[:, 0] + 1]) / k).sum(0))


def _y(order):
    def y(x):
        with np.errstate(all="ignore"):
            out = _small_large(x, lambda v: _neumann(v, order), lambda v: _jy_large(v, order)[1])
        out = np.where((x < 0) | np.isinf(x), np.nan, out)
        return np.where(x == 0, -np.inf, out)
    return y


def _i_table_row(order):
    """I_order at |x| < 25: the trapezoidal sum of (1 / 2 pi) * integral of
    exp(x cos theta) cos(order theta) over a period (64 nodes)."""
    theta = 2 * math.pi * np.arange(64) / 64
    weights = np.cos(order * theta) / 64

    def row(v):
        return weights @ np.exp(np.outer(np.cos(theta), v))
    return row


def _i1(x):
    a = np.abs(x)

    def large(v):
        with np.errstate(over="ignore"):
            terms = _asymptotic_terms(v, 1)
            series = sum(t * (-1) ** k for k, t in enumerate(terms))
            return np.where(v > 720, np.inf, np.exp(v) / np.sqrt(2 * math.pi * v) * series)
    out = np.sign(x) * _small_large(a, _small(_i_table_row(1), 1, 1), large)
    return np.where(np.isinf(x), np.nan, out)


def _i0(x):
    with np.errstate(all="ignore"):
        return np.where(np.isinf(x), np.nan, np.i0(x))


def _k_scaled(order):
    """exp(x) K_order(x) for x > 0: the trapezoidal sum (step 0.15) of the integral over
    t >= 0 of exp(-x (cosh t - 1)) cosh(order t); Hankel's expansion from x = 25."""
    def small(v):
        h = 0.15
        t = np.arange(0.0, math.acosh(1 + 80 / float(v.min())) + 2, h)
        w = np.cosh(order * t) * h
        w[0] /= 2
        return w @ np.exp(-np.outer(np.cosh(t) - 1, v))

    def large(v):
        with np.errstate(all="ignore"):
            series = sum(_asymptotic_terms(v, order))
            return np.where(np.isinf(v), 0.0, np.sqrt(math.pi / (2 * v)) * series)

    def k(x):
        with np.errstate(all="ignore"):
            out = _small_large(np.where(x > 0, x, np.nan), small, large)
        out = np.where(x < 0, np.nan, out)
        return np.where(x == 0, np.inf, out)
    return k


def _k_unscaled(order):
    scaled = _k_scaled(order)

    def k(x):
        with np.errstate(all="ignore"):
            return np.where(x == 0, np.inf, scaled(x) * np.exp(-x))
    return k


def _bessel(name, kernel64, cephes_fn=None):
    """torch.special.NAME: Cephes' algorithm in the tensor's dtype as PyTorch computes it
    (engine/cephes.py) for float32 and float64; half precision through kernel64 rounded once."""
    def forward(input, *, out=None):
        x = _unary_operand(input, name)
        with np.errstate(all="ignore"):
            if cephes_fn is not None and x.dtype in (np.float32, np.float64):
                return _new(np.asarray(cephes_fn(np.ascontiguousarray(x)), x.dtype))
            return _new(np.asarray(kernel64(x.astype(np.float64))).astype(x.dtype))
    forward.__name__ = forward.__qualname__ = name
    declare("special_" + name, forward, method=False, function=False)
    SPECIAL[name] = forward
    return forward


_bessel("bessel_j0", _j0, cephes.j0)
_bessel("bessel_j1", _j1, cephes.j1)
_bessel("bessel_y0", _y(0), cephes.y0)
_bessel("bessel_y1", _y(1), cephes.y1)
_bessel("modified_bessel_i0", _i0, cephes.i0)
_bessel("modified_bessel_i1", _i1, cephes.i1)
_bessel("modified_bessel_k0", _k_unscaled(0), cephes.k0)
_bessel("modified_bessel_k1", _k_unscaled(1), cephes.k1)
_bessel("scaled_modified_bessel_k0", _k_scaled(0), cephes.k0e)
_bessel("scaled_modified_bessel_k1", _k_scaled(1), cephes.k1e)


_AI0 = 0.35502805388781723926     # Ai(0)
_AI1 = 0.25881940379280679840     # -Ai'(0)


def _airy_maclaurin(x):
    """Ai(x) = Ai(0) f(x) + Ai'(0) g(x) from the two power series (for -8 <= x <= 1: below
    0 their terms alternate in sign and stay below 1e7)."""
    x3 = x * x * x
    f, g = np.ones_like(x), x.copy()
    tf, tg = np.ones_like(x), x.copy()
    for k in range(1, 60):
        tf = tf * x3 / ((3 * k - 1) * (3 * k))
        tg = tg * x3 / ((3 * k) * (3 * k + 1))
        f, g = f + tf, g + tg
    return _AI0 * f - _AI1 * g


def _airy_oscillating(z):
    """Ai(-z) for z > 8: the expansion in zeta = 2/3 z^(3/2) (its smallest term is about
    exp(-2 zeta) < 1e-13 here)."""
    zeta = 2.0 / 3.0 * z * np.sqrt(z)
    u = [1.0]
    for k in range(1, 24):
        u.append(u[-1] * (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / ((2 * k - 1) * 216 * k))
    p = sum((-1) ** (k // 2) * u[k] / zeta ** k for k in range(0, 24, 2))
    q = sum((-1) ** (k // 2) * u[k] / zeta ** k for k in range(1, 24, 2))
    angle = zeta + math.pi / 4
    return (np.sin(angle) * p - np.cos(angle) * q) / (math.sqrt(math.pi) * np.sqrt(np.sqrt(z)))


def _airy_ai(x):
    """Ai(x): for x > 1 from K_(1/3) (Ai(x) = sqrt(x / 3) K_(1/3)(zeta) / pi), else the
    power series or, below -8, the oscillating expansion."""
    out = np.full(x.shape, np.nan)
    with np.errstate(all="ignore"):
        pos = x > 1
        if pos.any():
            v = x[pos]
            zeta = 2.0 / 3.0 * v * np.sqrt(v)
            out[pos] = np.sqrt(v / 3) / math.pi * _k_scaled(1 / 3)(zeta) * np.exp(-zeta)
        mid = (x <= 1) & (x >= -8)
        out[mid] = _airy_maclaurin(x[mid])
        low = x < -8
        out[low] = _airy_oscillating(-x[low])
    # as PyTorch: 0 past Cephes' underflow limit, NaN at the infinities
    return np.where(np.isinf(x), np.nan, np.where(x > 103.892, 0.0, out))


_bessel("airy_ai", _airy_ai)


# ================================================================ Hurwitz zeta
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798, -174611 / 330,
              854513 / 138, -236364091 / 2730)   # B_2, B_4, ..., B_24


def _zeta64(x, q):
    """zeta(x, q) = sum over k >= 0 of (q + k)^-x, in float64 (PyTorch computes float32 in
    double too): nine terms, then Euler-Maclaurin's tail with twelve Bernoulli terms."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    with np.errstate(all="ignore"):
        total = np.zeros(x.shape)
        for k in range(9):
            total = total + np.power(q + k, -x)
        a = q + 9
        total = total + np.power(a, 1 - x) / (x - 1) + np.power(a, -x) / 2
        rising = x.copy()                    # x (x + 1) ... (x + 2j - 2)
        power = np.power(a, -x - 1)          # a^(-x - 2j + 1)
        factorial = 2.0
        for j, b in enumerate(_BERNOULLI, start=1):
            total = total + b / factorial * rising * power
            rising = rising * (x + 2 * j - 1) * (x + 2 * j)
            power = power / (a * a)
            factorial *= (2 * j + 1) * (2 * j + 2)
        out = np.where(x == 1, np.inf, np.where(x < 1, np.nan, total))
        pole = (q <= 0) & (q == np.floor(q))
        out = np.where((x > 1) & pole, np.inf, out)
        return np.where((x > 1) & (q <= 0) & ~pole & (x != np.floor(x)), np.nan, out)


def _zeta_of(xp, x, q):
    """zeta(x + 1, q) as the backward needs it: the op under create_graph, else the kernel."""
    if xp.tensors:
        return _zeta_op(x + 1, q)
    return xp.constant(_zeta64(np.asarray(x) + 1, q).astype(q.dtype))


def _no_zeta_derivative():
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


@rule("SpecialZetaBackward0", ("self", "other"), ("not implemented", "grad * -self * special_zeta(self + 1., other)"),
      saved=("self", "other"), ctx=("self_shape", "other_shape"))
def SpecialZetaBackward0(grad, xp, node, self, other, self_shape, other_shape):
    if node.edges[0] is not None:
        _no_zeta_derivative()
    return (None, xp.sum_to(grad * -self * _zeta_of(xp, self, other), other_shape))


@rule("SpecialZetaBackward1", ("other",), ("grad * -self * special_zeta(self + 1., other)",), saved=("other",),
      ctx=("self",))
def SpecialZetaBackward1(grad, xp, other, self):
    return (grad * -self * _zeta_of(xp, self, other),)


@rule("SpecialZetaBackward2", ("self",), ("not implemented",))
def SpecialZetaBackward2(grad, xp):
    _no_zeta_derivative()


def _zeta_op(input, other, *, out=None):
    x, q = input, other
    if type(x) is not Tensor and type(q) is not Tensor:
        raise TypeError(f"special_zeta() received an invalid combination of arguments - got ({pytype(x)}, "
                        f"{pytype(q)}), but expected one of:\n * (Tensor self, Tensor other, *, Tensor out = None)\n"
                        " * (Number self, Tensor other, *, Tensor out = None)\n"
                        " * (Tensor self, Number other, *, Tensor out = None)")
    xa, qa = _binary_operands(x, q, "zeta")
    res = _new(_zeta64(xa, qa).astype(xa.dtype))
    if type(x) is Tensor and type(q) is Tensor:
        return result(res._a, SpecialZetaBackward0, (x, q), (x, q), (x._a.shape, q._a.shape))
    if type(q) is Tensor:
        return result(res._a, SpecialZetaBackward1, (q,), (q,), float(x))
    return result(res._a, SpecialZetaBackward2, (x,))


declare("special_zeta", _zeta_op, method=False, function=False,
        rules=[SpecialZetaBackward0, SpecialZetaBackward1, SpecialZetaBackward2])
SPECIAL["zeta"] = _zeta_op


# ================================================================ torch.linalg
def _info(a):
    """The int32 `info` of the *_ex functions: 0 for each matrix of the batch."""
    return _new(np.zeros(a.shape[:-2], np.int32))


def _inv_ex(A, *, check_errors=False, out=None):
    inv = linalg_ext.inverse(A)
    return returns("linalg_inv_ex", ("inverse", "info"))((inv, _info(A._a)))


def _solve_ex(A, B, *, left=True, check_errors=False, out=None):
    return returns("linalg_solve_ex", ("result", "info"))((linalg_ext.solve(A, B, left=left), _info(A._a)))


def _cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    factors, infos = linalg_ext.cholesky_failures(A._a)
    if infos.any() and not check_errors:    # LAPACK's partial factor and the failing order, no error
        L = _new(np.ascontiguousarray(np.swapaxes(factors, -1, -2)) if upper else factors)
        return returns("linalg_cholesky_ex", ("L", "info"))((L, _new(infos)))
    return returns("linalg_cholesky_ex", ("L", "info"))((linalg_ext.cholesky(A, upper=upper), _info(A._a)))


def _linalg_vander(x, *, N=None):
    """x^0, x^1, ..., x^(N-1) along a new last dim: ones, then the running product of x
    (PyTorch's CatBackward0 over CumprodBackward0)."""
    if x.dim() == 0:
        raise RuntimeError("linalg.vander: x must have at least one dimension")
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    if x._a.dtype.kind in "bu" or x._a.dtype.kind == "i" and x._a.dtype != np.int64:
        x = x.to(D.int64)
    column = x.unsqueeze(-1)
    ones = _new(np.ones(column.shape, column._a.dtype))
    return cat([ones, column.expand(*x.shape, n - 1).cumprod(-1)], -1)


# solve_triangular: X = A^-1 B (left) or B A^-1; the gradients as PyTorch's
# linalg_solve_triangular_backward: gB = solve_triangular(A^H, G) and gA = -gB X^H kept on A's triangle
def _triangular(a, upper, unitriangular):
    m = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        idx = np.arange(a.shape[-1])
        m = m.copy()
        m[..., idx, idx] = 1
    return m


def _solve_tri(a, b, upper, left, unitriangular):
    """The triangular solve of (batches of) a in the inputs' dtype, in the reference BLAS
    trsm's order (left: each solved row is subtracted from the rows left to solve; right:
    each column gathers the solved ones in increasing order), dividing as MKL does, by
    multiplying with the diagonal's reciprocal."""
    dt = np.result_type(a, b)
    t = _triangular(np.asarray(a, dt), upper, unitriangular)
    rhs = np.asarray(b, dt)
    batch = np.broadcast_shapes(t.shape[:-2], rhs.shape[:-2])
    t = np.broadcast_to(t, batch + t.shape[-2:])
    x = np.array(np.broadcast_to(rhs, batch + rhs.shape[-2:]), dt)
    n = t.shape[-1]
    with np.errstate(all="ignore"):
        if left:
            for i in (range(n - 1, -1, -1) if upper else range(n)):
                if not unitriangular:      # MKL multiplies by the diagonal's reciprocal
                    x[..., i, :] *= (dt.type(1) / t[..., i, i])[..., None]
                rest = slice(0, i) if upper else slice(i + 1, n)
                x[..., rest, :] -= t[..., rest, i][..., None] * x[..., i:i + 1, :]
        else:     # X A = B, column by column
            for j in (range(n) if upper else range(n - 1, -1, -1)):
                for k in (range(j) if upper else range(j + 1, n)):
                    x[..., :, j] -= t[..., k, j][..., None] * x[..., :, k]
                if not unitriangular:
                    x[..., :, j] *= (dt.type(1) / t[..., j, j])[..., None]
    return x


def _tri_grad(xp, A, grad, result, upper, left, unitriangular):
    gb = _solve_triangular(xp.mT(A), grad, upper=not upper, left=left, unitriangular=unitriangular) if xp.tensors \
        else xp.constant(_solve_tri(np.swapaxes(xp.raw(A), -1, -2), xp.raw(grad), not upper, left,
                                    unitriangular).astype(xp.raw(grad).dtype))
    ga = -xp.matmul(gb, xp.mT(result)) if left else -xp.matmul(xp.mT(result), gb)
    ga = ga.triu() if xp.tensors and upper else ga.tril() if xp.tensors else xp.constant(
        np.triu(xp.raw(ga)) if upper else np.tril(xp.raw(ga)))
    if unitriangular:
        ga = ga.tril(-1) if xp.tensors and not upper else ga.triu(1) if xp.tensors else xp.constant(
            np.triu(xp.raw(ga), 1) if upper else np.tril(xp.raw(ga), -1))
    return ga, gb


@rule("LinalgSolveTriangularBackward0", ("self", "B"),
      ("-(A^-H grad) X^H on A's triangle", "solve_triangular(A^H, grad, upper=not upper)"),
      saved=("self", "result"), ctx=("upper", "left", "unitriangular", "self_shape", "B_shape"))
def LinalgSolveTriangularBackward0(grad, xp, node, self, result, upper, left, unitriangular, self_shape, B_shape):
    ga, gb = _tri_grad(xp, self, grad, result, upper, left, unitriangular)
    return (xp.sum_to(ga, self_shape) if node.edges[0] is not None else None,
            xp.sum_to(gb, B_shape) if node.edges[1] is not None else None)


def _solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    for t, arg, pos in ((A, "input", 1), (B, "B", 2)):
        if type(t) is not Tensor:
            raise TypeError(f"linalg_solve_triangular(): argument '{arg}' (position {pos}) must be Tensor, not "
                            f"{pytype(t)}")
    a, b = A._a, B._a
    if a.ndim < 2 or b.ndim < 2:
        raise RuntimeError(f"linalg.solve_triangular: The input tensor {'A' if a.ndim < 2 else 'B'} must have at "
                           "least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.solve_triangular: A must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")
    dt = np.result_type(a, b)
    out = _solve_tri(a, b, upper, left, unitriangular).astype(dt)
    return result(out, LinalgSolveTriangularBackward0, (A, B), (A, RESULT),
                  (upper, left, unitriangular, a.shape, b.shape))


declare("linalg_solve_triangular", _solve_triangular, method=False, function=False,
        rules=[LinalgSolveTriangularBackward0])


def _tensorinv(A, ind=2, *, out=None):
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = tuple(A.shape)
    head, tail = shape[:ind], shape[ind:]
    rows, cols = int(np.prod(head)), int(np.prod(tail))
    if rows != cols:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {cols} != {rows}")
    try:
        inv = linalg_ext.inverse(A.reshape(rows, -1))
    except linalg_ext.LinAlgError as e:     # PyTorch's tensorinv names the kernel `inv`
        raise linalg_ext.LinAlgError(str(e).replace("linalg.inv:", "inv:", 1)) from None
    return inv.reshape(*tail, *head)


def _tensorsolve(A, B, dims=None, *, out=None):
    if dims is not None:     # PyTorch moves dims to the end, in their order
        A = A.movedim(list(dims), list(range(A.dim() - len(dims), A.dim())))
    shape = tuple(A.shape)
    result_shape = shape[B.dim():]
    n = int(np.prod(result_shape))
    if int(np.prod(shape[:B.dim()])) != n:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {n} != {int(np.prod(shape[:B.dim()]))}")
    return linalg_ext.solve(A.reshape(n, n), B.flatten()).view(*result_shape)


def _cond(A, p=None, *, out=None):
    """PyTorch's linalg_cond: the ratio of the extreme singular values for p in (None, 2, -2);
    otherwise norm(A, p) * norm(A^-1, p) (NaN from a singular matrix becomes inf)."""
    if p in (None, 2, -2):
        s = linalg_ext.svd_(A, full_matrices=False)[1]
        first, last = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        return (first / last if p != -2 else last / first).squeeze(-1)
    return (linalg_ext.matrix_norm(A, p) * linalg_ext.matrix_norm(linalg_ext.inverse(A), p)).nan_to_num(
        float("inf"))


LINALG.update(inv_ex=_inv_ex, solve_ex=_solve_ex, cholesky_ex=_cholesky_ex, vander=_linalg_vander,
              solve_triangular=_solve_triangular, tensorinv=_tensorinv, tensorsolve=_tensorsolve, cond=_cond)


# ---------------------------------------------------------------- LU
def _lu_arrays(a):
    """Partial-pivoting LU of (batches of) square or rectangular matrices, in a's dtype:
    LU packed (unit L below the diagonal) and LAPACK's 1-based int32 pivots."""
    lu = np.array(a, copy=True)
    m, n = lu.shape[-2:]
    k = min(m, n)
    flat = lu.reshape(-1, m, n)
    piv = np.empty((flat.shape[0], k), np.int32)
    for b in range(flat.shape[0]):
        x = flat[b]
        for j in range(k):
            p = j + int(np.argmax(np.abs(x[j:, j])))
            piv[b, j] = p + 1
            if p != j:
                x[[j, p]] = x[[p, j]]
            if x[j, j] != 0:
                x[j + 1:, j] /= x[j, j]
            x[j + 1:, j + 1:] -= np.outer(x[j + 1:, j], x[j, j + 1:])
    return flat.reshape(lu.shape), piv.reshape(lu.shape[:-2] + (k,))


def _permutation(piv, m, dtype):
    """P with A = P L U, from the pivots (row j swapped with pivots[j] - 1, in turn)."""
    flat = piv.reshape(-1, piv.shape[-1])
    out = np.empty((flat.shape[0], m, m), dtype)
    for b in range(flat.shape[0]):
        perm = np.arange(m)
        for j, p in enumerate(flat[b] - 1):
            perm[[j, p]] = perm[[p, j]]
        out[b] = np.eye(m, dtype=dtype)[:, perm]
    return out.reshape(piv.shape[:-1] + (m, m))


def _unpack(lu):
    m, n = lu.shape[-2:]
    k = min(m, n)
    L = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
    U = np.triu(lu[..., :k, :])
    return L, U


def _lu_grad(xp, P, L, U, gL, gU):
    """PyTorch's linalg_lu_backward for square A = P L U:
    gA = P L^-H [(L^H gL).tril(-1) + (gU U^H).triu()] U^-H."""
    phi = None
    if gL is not None:
        phi = xp.matmul(xp.mT(L), gL)
        phi = phi.tril(-1) if xp.tensors else xp.constant(np.tril(xp.raw(phi), -1))
    if gU is not None:
        t = xp.matmul(gU, xp.mT(U))
        t = t.triu() if xp.tensors else xp.constant(np.triu(xp.raw(t)))
        phi = t if phi is None else phi + t
    if xp.tensors:
        x = _solve_triangular(xp.mT(U), phi, upper=False, left=False)
        x = _solve_triangular(xp.mT(L), x, upper=True, unitriangular=True)
    else:
        dt = xp.raw(phi).dtype
        x = _solve_tri(np.swapaxes(xp.raw(U), -1, -2), xp.raw(phi), False, False, False)
        x = xp.constant(_solve_tri(np.swapaxes(xp.raw(L), -1, -2), x, True, True, True).astype(dt))
    return xp.matmul(P, x)


def _square_lu(A, name):
    if A._a.shape[-1] != A._a.shape[-2]:
        raise RuntimeError(f"linalg.{name}: gradients of the LU factorization of non-square matrices are not "
                           "available in gradrepl")


@rule("LinalgLuFactorExBackward0", ("A",), ("lu_factor_ex_backward(grad, LU, pivots)",), saved=("result",),
      ctx=("pivots",))
def LinalgLuFactorExBackward0(grad, xp, result, pivots):
    lu = xp.raw(result)
    L, U = _unpack(lu)
    P = xp.constant(_permutation(pivots, lu.shape[-2], lu.dtype))
    if xp.tensors:
        gL, gU = grad.tril(-1), grad.triu()
        L, U = result.tril(-1) + xp.constant(np.eye(lu.shape[-2], dtype=lu.dtype)), result.triu()
    else:
        gL, gU = xp.constant(np.tril(xp.raw(grad), -1)), xp.constant(np.triu(xp.raw(grad)))
        L, U = xp.constant(L), xp.constant(U)
    return (_lu_grad(xp, P, L, U, gL, gU),)


def _lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    if A._a.ndim < 2:
        raise RuntimeError("linalg.lu_factor: The input tensor A must have at least 2 dimensions.")
    if A.requires_grad:
        _square_lu(A, "lu_factor")
    lu, piv = _lu_arrays(A._a)
    out = result(lu, LinalgLuFactorExBackward0, (A,), (RESULT,), piv)
    return returns("linalg_lu_factor_ex", ("LU", "pivots", "info"))((out, _new(piv), _info(A._a)))


def _lu_factor(A, *, pivot=True, out=None):
    LU, piv, _ = _lu_factor_ex(A, pivot=pivot)
    return returns("linalg_lu_factor", ("LU", "pivots"))((LU, piv))


@rule("LinalgLuBackward0", ("A",), ("P L^-H [(L^H gL).tril(-1) + (gU U^H).triu()] U^-H",), saved=("P", "L", "U"),
      multi=True)
def LinalgLuBackward0(grads, xp, P, L, U):
    gL, gU = grads
    return (_lu_grad(xp, P, L, U, gL, gU),)


def _lu(A, *, pivot=True, out=None):
    if not pivot:
        raise RuntimeError("linalg.lu: LU without pivoting is not implemented on the CPU")
    if A._a.ndim < 2:
        raise RuntimeError("linalg.lu: The input tensor A must have at least 2 dimensions.")
    lu, piv = _lu_arrays(A._a)
    L, U = _unpack(lu)
    P = _new(_permutation(piv, lu.shape[-2], lu.dtype))
    outs = (_new(L), _new(U))
    if GRAD[0] and (A._fn is not None or A._rg):
        _square_lu(A, "lu")
        node = Node(LinalgLuBackward0, (edge_of(A),), outs, None)
        node.n_out = 2
        for k, o in enumerate(outs):
            o._fn, o._onr = node, k
        node.saved = (P, SavedOutput(outs[0], node), SavedOutput(outs[1], node))
        node.saved_outputs = (1, 2)
    return returns("linalg_lu", ("P", "L", "U"))((P, *outs))


@rule("LinalgLuSolveBackward0", ("LU", "B"), ("-U^-H gX X^H spread over L and U", "lu_solve(LU, pivots, grad, adjoint)"),
      saved=("LU", "result"), ctx=("pivots",))
def LinalgLuSolveBackward0(grad, xp, node, LU, result, pivots):
    lu = xp.raw(LU)
    gB = xp.constant(_lu_solve_arrays(lu, pivots, xp.raw(grad), adjoint=True).astype(lu.dtype))
    gLU = None
    if node.edges[0] is not None:    # PyTorch's formula for left=True, adjoint=False
        L, U = _unpack(lu)
        gR = _solve_tri(np.swapaxes(U, -1, -2), -xp.raw(grad) @ np.swapaxes(xp.raw(result), -1, -2), False, True,
                        False)
        gU = np.triu(gR)
        gL = np.tril(_solve_tri(np.swapaxes(L, -1, -2), gR, True, True, True) @ np.swapaxes(U, -1, -2), -1)
        gLU = xp.constant((gL + gU).astype(lu.dtype))
    return (gLU, gB)


def _lu_solve_arrays(lu, piv, b, adjoint=False):
    L, U = _unpack(lu)
    P = _permutation(piv, lu.shape[-2], lu.dtype)     # (a product with it only moves rows: exact)
    if adjoint:      # A^H X = B with A = P L U:  X = P L^-H U^-H B
        y = _solve_tri(np.swapaxes(U, -1, -2), b, False, True, False)
        return P @ _solve_tri(np.swapaxes(L, -1, -2), y, True, True, True)
    y = _solve_tri(L, np.swapaxes(P, -1, -2) @ b, False, True, True)
    return _solve_tri(U, y, True, True, False)


def _lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    if not left or adjoint:
        raise RuntimeError("linalg.lu_solve: left=False and adjoint=True are not available in gradrepl")
    x = _lu_solve_arrays(LU._a, pivots._a, B._a).astype(np.result_type(LU._a, B._a))
    return result(x, LinalgLuSolveBackward0, (LU, B), (LU, RESULT), pivots._a)


declare("linalg_lu_factor_ex", _lu_factor_ex, method=False, function=False, rules=[LinalgLuFactorExBackward0])
declare("linalg_lu", _lu, method=False, function=False, rules=[LinalgLuBackward0])
declare("linalg_lu_solve", _lu_solve, method=False, function=False, rules=[LinalgLuSolveBackward0])
LINALG.update(lu_factor=_lu_factor, lu_factor_ex=_lu_factor_ex, lu=_lu, lu_solve=_lu_solve)


# ================================================================ affine_grid, grid_sample (spatial transformers)
_ALIGN_WARNING = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                  "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                  "grid_sample for details.")


def _steps(n, align_corners, dt):
    """linspace(-1, 1, n) (scaled by (n - 1) / n unless align_corners), PyTorch's linspace_from_neg_one."""
    if n <= 1:
        return np.zeros(1 if n == 1 else 0, dt)
    r = creation.linspace(-1.0, 1.0, n, dtype=D.from_np(dt))._a
    if not align_corners:
        r = (r * dt.type(n - 1)) / dt.type(n)
    return r


def _base_grid(n, h, w, align_corners, dt):
    base = np.empty((n, h, w, 3), dt)
    base[..., 0] = _steps(w, align_corners, dt)
    base[..., 1] = _steps(h, align_corners, dt)[:, None]
    base[..., 2] = 1
    return base


@rule("AffineGridGeneratorBackward0", ("theta",), ("base_grid^T @ grad, transposed",), ctx=("size", "align_corners"))
def AffineGridGeneratorBackward0(grad, xp, size, align_corners):
    n, _, h, w = size
    g = xp.raw(grad)
    base_t = np.ascontiguousarray(np.swapaxes(_base_grid(n, h, w, align_corners, g.dtype).reshape(n, h * w, 3), 1, 2))
    if xp.tensors:
        return (xp.mT(xp.matmul(xp.constant(base_t), xp.reshape(grad, (n, h * w, 2)))),)
    # aten's bmm (its naive kernel for small products: PyTorch's sums)
    return (np.swapaxes(bmm(_new(base_t), _new(np.ascontiguousarray(g.reshape(n, h * w, 2))))._a, 1, 2),)


def _affine_grid(theta, size, align_corners=None):
    if align_corners is None:
        warn("UserWarning", _ALIGN_WARNING)
        align_corners = False
    if type(theta) is not Tensor or theta._a.dtype.kind != "f":
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype if type(theta) is Tensor else pytype(theta)}")
    size = tuple(size)
    if len(size) != 4:
        raise NotImplementedError(f"affine_grid only supports 4D sizes, for 2D affine transformations in gradrepl. "
                                  f"Got size {list(size)}.")
    if theta._a.ndim != 3 or theta._a.shape[-2:] != (2, 3):
        raise ValueError("Expected a batch of 2D affine matrices of shape Nx2x3 for size "
                         f"{_size_repr(size)}. Got {list(theta.shape)}.")
    if min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {list(size)}")
    n, _, h, w = size
    dt = theta._a.dtype
    base = _base_grid(n, h, w, align_corners, dt).reshape(n, h * w, 3)
    out = bmm(_new(base), _new(np.ascontiguousarray(np.swapaxes(theta._a, 1, 2))))._a.reshape(n, h, w, 2)
    return result(out, AffineGridGeneratorBackward0, (theta,), (), (size, align_corners))


def _size_repr(size):
    return "torch.Size([" + ", ".join(str(s) for s in size) + "])"


def _unnormalize(coord, size, align_corners, padding_mode):
    """Grid coordinates in [-1, 1] to pixel positions, and d(position)/d(coordinate)."""
    dt = coord.dtype
    if align_corners:
        scale = dt.type((size - 1) / 2)
        pos = (coord + dt.type(1)) * scale
    else:
        scale = dt.type(size / 2)
        pos = _fma(coord + dt.type(1), scale, dt.type(-0.5))
    mult = np.full(coord.shape, scale, dt)
    if padding_mode == "border":
        inside = (pos > 0) & (pos < dt.type(size - 1))
        pos = np.minimum(np.maximum(pos, dt.type(0)), dt.type(size - 1))
        mult = np.where(inside, mult, dt.type(0))
    return pos, mult


def _corners(x, y, H, W):
    """The four neighbours of each sampling point: their flat indices, in-bounds masks and
    bilinear weights (nw, ne, sw, se), and the fractions PyTorch's backward reuses."""
    x0, y0 = np.floor(x), np.floor(y)
    w_ = x - x0
    e = x.dtype.type(1) - w_
    n_ = y - y0
    s = y.dtype.type(1) - n_
    ix, iy = x0.astype(np.int64), y0.astype(np.int64)
    pts = []
    for dy, dx, weight in ((0, 0, s * e), (0, 1, s * w_), (1, 0, n_ * e), (1, 1, n_ * w_)):
        cx, cy = ix + dx, iy + dy
        ok = (cx >= 0) & (cx < W) & (cy >= 0) & (cy < H)
        pts.append((np.where(ok, cy * W + cx, 0), ok, weight))
    return pts, (w_, e, n_, s)


def _gather(flat_input, idx, ok):
    """input values (N, C, Hout*Wout) at each point's neighbour; 0 outside."""
    vals = np.take_along_axis(flat_input, idx.reshape(idx.shape[0], 1, -1), 2)
    return np.where(ok.reshape(ok.shape[0], 1, -1), vals, 0).astype(flat_input.dtype)


def _grid_sample_arrays(x, grid, mode, padding_mode, align_corners):
    N, C, H, W = x.shape
    gx, mx = _unnormalize(grid[..., 0], W, align_corners, padding_mode)
    gy, my = _unnormalize(grid[..., 1], H, align_corners, padding_mode)
    flat = x.reshape(N, C, H * W)
    shape = (N, C) + grid.shape[1:3]
    if mode == "nearest":
        cx, cy = np.rint(gx).astype(np.int64), np.rint(gy).astype(np.int64)
        ok = (cx >= 0) & (cx < W) & (cy >= 0) & (cy < H)
        return _gather(flat, np.where(ok, cy * W + cx, 0), ok).reshape(shape)
    pts, _ = _corners(gx, gy, H, W)
    out = None
    for idx, ok, weight in pts:    # nw * v_nw, then each further corner in a fused multiply-add
        v, wt = _gather(flat, idx, ok), weight.reshape(N, 1, -1)
        out = v * wt if out is None else _fma(v, wt, out)
    return out.reshape(shape)


def _grid_sample_backward(g, x, grid, mode, padding_mode, align_corners, need_input, need_grid):
    N, C, H, W = x.shape
    gx, mx = _unnormalize(grid[..., 0], W, align_corners, padding_mode)
    gy, my = _unnormalize(grid[..., 1], H, align_corners, padding_mode)
    g = g.reshape(N, C, -1)
    flat = x.reshape(N, C, H * W)
    grad_input = grad_grid = None
    rows = np.arange(N)[:, None, None]
    chans = np.arange(C)[None, :, None]
    if mode == "nearest":
        if need_input:
            cx, cy = np.rint(gx).astype(np.int64), np.rint(gy).astype(np.int64)
            ok = ((cx >= 0) & (cx < W) & (cy >= 0) & (cy < H)).reshape(N, 1, -1)
            idx = np.where(ok, (cy * W + cx).reshape(N, 1, -1), 0)
            acc = np.zeros((N, C, H * W), x.dtype)
            np.add.at(acc, (rows, chans, np.broadcast_to(idx, g.shape)), np.where(ok, g, 0).astype(x.dtype))
            grad_input = acc.reshape(x.shape)
        if need_grid:
            grad_grid = np.zeros(grid.shape, grid.dtype)
        return grad_input, grad_grid
    pts, (w_, e, n_, s) = _corners(gx, gy, H, W)
    if need_input:
        # PyTorch's vectorized kernel: a vector of points at a time (8 float32 under AVX2, 16 under
        # AVX512; half as many float64), its four corners in turn
        lane = kernels.LANES * 4 // x.dtype.itemsize
        P = g.shape[-1]
        order = np.arange(P)
        chunk, pos = order // lane, order % lane
        seq = np.lexsort((pos, np.zeros(P, int), chunk))    # by chunk, then lane
        idx_all = np.stack([idx.reshape(N, -1) for idx, _, _ in pts], 1)           # (N, 4, P)
        ok_all = np.stack([ok.reshape(N, -1) for _, ok, _ in pts], 1)
        w_all = np.stack([wt.reshape(N, -1) for _, _, wt in pts], 1)
        keys = chunk[seq]
        updates = []
        for c0 in np.unique(keys):
            block = seq[keys == c0]
            for k in range(4):
                updates.append((k, block))
        corner = np.concatenate([np.full(len(b), k) for k, b in updates])
        point = np.concatenate([b for _, b in updates])
        acc = np.zeros((N, C, H * W), x.dtype)
        contrib = np.where(ok_all[:, None, corner, point], g[:, :, point] * w_all[:, None, corner, point], 0)
        np.add.at(acc, (rows, chans, np.broadcast_to(idx_all[:, None, corner, point], contrib.shape)),
                  contrib.astype(x.dtype))
        grad_input = acc.reshape(x.shape)
    if need_grid:
        nw, ne, sw, se = [_gather(flat, idx, ok) for idx, ok, _ in pts]
        s_, n2, e_, w2 = (v.reshape(N, 1, -1) for v in (s, n_, e, w_))
        dx = np.zeros((N, g.shape[-1]), x.dtype)
        dy = np.zeros((N, g.shape[-1]), x.dtype)
        for c in range(C):          # channel by channel, as PyTorch accumulates
            dx = _fma(_fma(ne[:, c] - nw[:, c], s_[:, 0], (se[:, c] - sw[:, c]) * n2[:, 0]), g[:, c], dx)
            dy = _fma(_fma(sw[:, c] - nw[:, c], e_[:, 0], (se[:, c] - ne[:, c]) * w2[:, 0]), g[:, c], dy)
        grad_grid = np.stack([dx.reshape(mx.shape) * mx, dy.reshape(my.shape) * my], -1).astype(grid.dtype)
    return grad_input, grad_grid


@rule("GridSampler2DBackward0", ("input", "grid"), ("grid_sampler_2d_backward(grad)[input]",
                                                    "grid_sampler_2d_backward(grad)[grid]"),
      saved=("input", "grid"), ctx=("mode", "padding_mode", "align_corners"))
def GridSampler2DBackward0(grad, xp, node, input, grid, mode, padding_mode, align_corners):
    gi, gg = _grid_sample_backward(xp.raw(grad), xp.raw(input), xp.raw(grid), mode, padding_mode, align_corners,
                                   node.edges[0] is not None, node.edges[1] is not None)
    return (None if gi is None else xp.depends(xp.constant(gi), grad),
            None if gg is None else xp.depends(xp.constant(gg), grad))


def _grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if mode == "bicubic" or padding_mode == "reflection":
        raise NotImplementedError(f"grid_sample with mode='{mode}', padding_mode='{padding_mode}' is not available "
                                  "in gradrepl (bilinear or nearest, zeros or border padding)")
    if align_corners is None:
        warn("UserWarning", _ALIGN_WARNING)
        align_corners = False
    x, g = input._a, grid._a
    if x.ndim != 4:
        raise NotImplementedError("grid_sample: only 4-D inputs (2-D sampling) are available in gradrepl")
    if g.ndim != 4 or g.shape[-1] != 2 or g.shape[0] != x.shape[0]:
        raise RuntimeError("grid_sampler(): expected grid to have size 2 in last dimension, and the same batch size "
                           f"as input, but got grid with sizes {shape_list(g.shape)}")
    if x.dtype != g.dtype:
        raise RuntimeError(f"grid_sampler(): expected input and grid to have same dtype, but input has "
                           f"{input.dtype} and grid has {grid.dtype}")
    out = _grid_sample_arrays(x, g, mode, padding_mode, align_corners)
    return result(out, GridSampler2DBackward0, (input, grid), (input, grid), (mode, padding_mode, align_corners))


declare("affine_grid", _affine_grid, method=False, function=False, functional=True,
        rules=[AffineGridGeneratorBackward0])
declare("grid_sample", _grid_sample, method=False, function=False, functional=True, rules=[GridSampler2DBackward0])


def _conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return nn_extra._conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 3,
                                    "conv_transpose3d")


declare("conv_transpose3d", _conv_transpose3d, method=False, functional=True, rules=[])


# ================================================================ pdist
def _pairs(n):
    i, j = np.triu_indices(n, 1)
    return i, j


def _pnorm(diff, p):
    a = np.abs(diff)
    if p == 0:
        return (a != 0).sum(-1).astype(diff.dtype)
    if p == math.inf:
        return a.max(-1) if a.shape[-1] else np.zeros(a.shape[:-1], diff.dtype)
    if p == 1:
        return a.sum(-1)
    if p == 2:
        return np.sqrt((a * a).sum(-1))
    return (a ** p).sum(-1) ** (1 / p)


@rule("PdistBackward0", ("self",), ("_pdist_backward(grad, self, p, result)",), saved=("self", "result"),
      ctx=("p",))
def PdistBackward0(grad, xp, self, result, p):
    x, d, g = xp.raw(self), xp.raw(result), xp.raw(grad)
    i, j = _pairs(x.shape[0])
    diff = (x[i] - x[j]).astype(np.float64)
    dd, gg = d.astype(np.float64)[:, None], g.astype(np.float64)[:, None]
    with np.errstate(all="ignore"):
        if p == 0:
            per = np.zeros_like(diff)
        elif p == 1:
            per = np.sign(diff)
        elif p == 2:
            per = np.where(dd == 0, 0.0, diff / dd)
        elif p == math.inf:
            per = np.sign(diff) * (np.abs(diff) == dd)
        else:
            per = np.where(dd == 0, 0.0, diff * np.abs(diff) ** (p - 2) / dd ** (p - 1))
    contrib = per * gg
    out = np.zeros(x.shape, np.float64)
    np.add.at(out, i, contrib)
    np.add.at(out, j, -contrib)
    return (xp.depends(xp.constant(out.astype(x.dtype)), grad),)


def _pdist(input, p=2):
    if type(input) is not Tensor:
        raise TypeError(f"pdist(): argument 'input' (position 1) must be Tensor, not {pytype(input)}")
    x = input._a
    if x.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {x.ndim}D")
    if x.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    i, j = _pairs(x.shape[0])
    with np.errstate(all="ignore"):
        out = _pnorm((x[i] - x[j]).astype(np.float64), float(p)).astype(x.dtype)
    return result(out, PdistBackward0, (input,), (input, RESULT), float(p))


declare("pdist", _pdist, method=False, functional=True, rules=[PdistBackward0])


# ================================================================ igamma / igammac (special.gammainc / gammaincc)
_lgamma_each = np.frompyfunc(lambda v: math.inf if v <= 0 and v == math.floor(v) else math.lgamma(v), 1, 1)


def _lgamma_f64(a):
    return np.asarray(_lgamma_each(np.asarray(a, np.float64)), np.float64)


def _gamma_inc64(a, x):
    """(P, Q): the regularized lower and upper incomplete gamma functions in float64, by
    the series of P below x = a + 1 and the continued fraction of Q above (Lentz), with
    PyTorch's answers at the edges (a or x negative or NaN: NaN; a = 0; x = 0; infinities)."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    p = np.full(a.shape, np.nan)
    q = np.full(a.shape, np.nan)
    with np.errstate(all="ignore"):
        ok = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
        lead = np.where(ok, a * np.log(np.where(ok, x, 1)) - x - _lgamma_f64(np.where(ok, a, 1)), 0)
        series = ok & (x < a + 1)
        if series.any():
            aa, xx = a[series], x[series]
            term = 1 / aa
            total = term.copy()
            n = aa.copy()
            for _ in range(2000):
                n = n + 1
                term = term * xx / n
                total = total + term
                if np.all(np.abs(term) <= np.abs(total) * 1e-17):
                    break
            p[series] = np.minimum(total * np.exp(lead[series]), 1.0)
            q[series] = 1 - p[series]
        frac = ok & ~series
        if frac.any():
            aa, xx = a[frac], x[frac]
            tiny = 1e-300
            b = xx + 1 - aa
            c = np.full(aa.shape, 1 / tiny)
            d = 1 / b
            h = d.copy()
            for i in range(1, 2000):
                an = -i * (i - aa)
                b = b + 2
                d = an * d + b
                d = np.where(np.abs(d) < tiny, tiny, d)
                c = b + an / c
                c = np.where(np.abs(c) < tiny, tiny, c)
                d = 1 / d
                delta = d * c
                h = h * delta
                if np.all(np.abs(delta - 1) <= 1e-16):
                    break
            q[frac] = np.exp(lead[frac]) * h
            p[frac] = 1 - q[frac]
        valid = ~(np.isnan(a) | np.isnan(x) | (a < 0) | (x < 0))
        zero_a = valid & (a == 0) & (x > 0)
        p[zero_a], q[zero_a] = 1.0, 0.0
        zero_x = valid & (a > 0) & (x == 0)
        p[zero_x], q[zero_x] = 0.0, 1.0
        inf_a = valid & np.isinf(a) & np.isfinite(x) & (x > 0)
        p[inf_a], q[inf_a] = 0.0, 1.0
        inf_x = valid & np.isinf(x) & np.isfinite(a) & (a > 0)
        p[inf_x], q[inf_x] = 1.0, 0.0
    return p, q


def _gamma_inc_density(xp, a, x):
    """d/dx P(a, x) = exp((a - 1) log x - x - lgamma(a)), derivatives.yaml's formula."""
    if xp.tensors:
        return ((a - 1) * x.log() - x - a.lgamma()).exp()
    with np.errstate(all="ignore"):
        out = np.exp((np.asarray(a, np.float64) - 1) * np.log(np.asarray(x, np.float64)) - x
                     - _lgamma_f64(a))
    return out.astype(x.dtype)


def _gamma_inc_operands(name, input, other, position):
    if type(other) is not Tensor:
        raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not {pytype(other)}")
    dt = D.result_type((input, other))
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{dt.legacy[:-len('Tensor')]}'")
    return np.broadcast_arrays(input._a.astype(dt.np, copy=False), other._a.astype(dt.np, copy=False))


def _no_gamma_inc_derivative(name):
    raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")


@rule("IgammaBackward0", ("self", "other"), ("not implemented", "grad * exp((self - 1) * log(other) - other - "
                                                                 "lgamma(self))"),
      saved=("self", "other"), ctx=("other_shape",))
def IgammaBackward0(grad, xp, node, self, other, other_shape):
    if node.edges[0] is not None:
        _no_gamma_inc_derivative("igamma")
    return (None, xp.sum_to(grad * _gamma_inc_density(xp, self, other), other_shape))


@rule("IgammacBackward0", ("self", "other"), ("not implemented", "-grad * exp((self - 1) * log(other) - other - "
                                                                  "lgamma(self))"),
      saved=("self", "other"), ctx=("other_shape",))
def IgammacBackward0(grad, xp, node, self, other, other_shape):
    if node.edges[0] is not None:
        _no_gamma_inc_derivative("igammac")
    return (None, xp.sum_to(-grad * _gamma_inc_density(xp, self, other), other_shape))


def _gamma_inc(name, upper, rule_):
    def forward(self, other, position=1):
        a, x = _gamma_inc_operands(name, self, other, position)
        p, q = _gamma_inc64(a, x)
        out = (q if upper else p).astype(a.dtype)
        return result(out, rule_, (self, other), (self, other), other._a.shape)
    forward.__name__ = forward.__qualname__ = name

    def torch_forward(input, other, *, out=None):
        if type(input) is not Tensor:
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {pytype(input)}")
        return forward(input, other, position=2)
    torch_forward.__name__ = torch_forward.__qualname__ = name
    return forward, torch_forward


_igamma, _torch_igamma = _gamma_inc("igamma", False, IgammaBackward0)
_igammac, _torch_igammac = _gamma_inc("igammac", True, IgammacBackward0)
declare("igamma", _igamma, rules=[IgammaBackward0], torch_forward=_torch_igamma,
        inplace=binary_inplace(_igamma, floating=True))
declare("igammac", _igammac, rules=[IgammacBackward0], torch_forward=_torch_igammac,
        inplace=binary_inplace(_igammac, floating=True))
SPECIAL["gammainc"] = _torch_igamma
SPECIAL["gammaincc"] = _torch_igammac
