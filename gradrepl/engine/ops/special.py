"""More elementwise math: inverse hyperbolics, erf & co., gamma functions, rounding parts,
two-input functions (atan2, hypot, fmod, remainder, lerp, xlogy, logaddexp, copysign, ...),
addcmul/addcdiv, float_power, nan_to_num.

float32 results are computed in float64 and rounded once (as elementwise.py's _f64 does);
the gamma-family kernels use Python's math module element by element (no SciPy here).
"""
import math

import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine import kernels
from gradrepl.engine.autograd import CPP_FORMULA, GRAD
from gradrepl.engine.ops.common import as_tensor, needs, operands, result, scalar_tensor, shapes
from gradrepl.engine.mkl import vml, vml_kernel
from gradrepl.engine.ops.elementwise import _f64, _math, _sigmoid, exp_kernel
from gradrepl.engine.ops.inplace import binary_inplace, inplace, scalar_first, unary_inplace
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.rng import _fma32 as fma32
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import legacy_scalar

_SQRT_PI = math.sqrt(math.pi)
_SQRT1_2 = 0.70710678118654752440     # M_SQRT1_2
_LN2 = math.log(2.0)


def _each(fn):
    ufunc = np.frompyfunc(fn, 1, 1)

    def f(a):
        return np.asarray(ufunc(np.asarray(a, np.float64)), np.float64)
    f.__name__ = fn.__name__
    return f


def _digamma64(x):
    x = np.asarray(x, np.float64)
    out = np.empty_like(x)
    flat, res = x.ravel(), out.ravel()
    for i, v in enumerate(flat.tolist()):
        if v == 0:
            res[i] = -math.inf if math.copysign(1, v) > 0 else math.inf
            continue
        if v < 0 and v == math.floor(v):
            res[i] = math.nan
            continue
        acc = 0.0
        if v < 0:  # reflection
            acc = -math.pi / math.tan(math.pi * v)
            v = 1 - v
        while v < 10:
            acc -= 1 / v
            v += 1
        inv = 1 / (v * v)
        acc += math.log(v) - 0.5 / v - inv * (1 / 12 - inv * (1 / 120 - inv * (1 / 252 - inv * (1 / 240 - inv / 132))))
        res[i] = acc
    return out


def _trigamma_one(v):
    if v <= 0 and v == math.floor(v):
        return math.inf
    if v < 0:   # reflection: psi1(x) + psi1(1 - x) = pi^2 / sin^2(pi x)
        return (math.pi / math.sin(math.pi * v)) ** 2 - _trigamma_one(1 - v)
    acc = 0.0
    while v < 10:
        acc += 1 / (v * v)
        v += 1
    inv = 1 / (v * v)
    return acc + 1 / v + inv / 2 + inv / v * (1 / 6 - inv * (1 / 30 - inv * (1 / 42 - inv / 30)))


def _trigamma64(x):
    x = np.asarray(x, np.float64)
    return np.asarray([_trigamma_one(v) for v in x.ravel().tolist()], np.float64).reshape(x.shape)


def _erfinv64(y):
    y = np.asarray(y, np.float64)
    out = np.full(y.shape, np.nan)
    ok = np.abs(y) < 1
    out[y == 1] = np.inf
    out[y == -1] = -np.inf
    v = y[ok]
    # Giles' single-precision approximation as the start, then Newton steps on erf
    w = -np.log((1.0 - v) * (1.0 + v))
    small = w < 5.0
    ws = w - 2.5
    p = np.where(small, 2.81022636e-08, -0.000200214257)
    for c_s, c_b in ((3.43273939e-07, 0.000100950558), (-3.5233877e-06, 0.00134934322),
                     (-4.39150654e-06, -0.00367342844), (0.00021858087, 0.00573950773),
                     (-0.00125372503, -0.0076224613), (-0.00417768164, 0.00943887047),
                     (0.246640727, 1.00167406), (1.50140941, 2.83297682)):
        wb = np.sqrt(np.maximum(w, 0)) - 3.0
        p = np.where(small, c_s + p * ws, c_b + p * wb)
    x = p * v
    erf = np.frompyfunc(math.erf, 1, 1)
    for _ in range(3):
        err = np.asarray(erf(x), np.float64) - v
        x = x - err / (2 / _SQRT_PI * np.exp(-x * x))
    out[ok] = x
    return out


def _as64(fn):
    """A kernel computed in float64 and returned in the input's dtype."""
    def f(a):
        return np.asarray(fn(a.astype(np.float64)), np.float64).astype(a.dtype, copy=False)
    f.__name__ = getattr(fn, "__name__", "kernel")
    return f


_erf64 = _each(math.erf)
_erfc64 = _each(math.erfc)
_lgamma64 = _each(lambda v: math.inf if v <= 0 and v == math.floor(v) else math.lgamma(v))


def _f64_or(kernel64, other):
    """kernel64 (PyTorch's float64 steps: kernels.unary64) for float64 arrays, `other` else."""
    if kernel64 is None:
        return other

    def f(a):
        return kernel64(a) if a.dtype == np.float64 else other(a)
    f.__name__ = getattr(other, "__name__", "kernel")
    return f


def _float32_or(kernel32, other):
    """kernel32 (PyTorch's float32 steps, engine/kernels.py) for float32 arrays, `other` else."""
    def f(a):
        return kernel32(a) if a.dtype == np.float32 else other(a)
    f.__name__ = other.__name__
    return f


# name, kernel, node, saved value, derivative as derivatives.yaml words it, the rule
# these rules follow derivatives.yaml's formulas operand by operand: PyTorch's bits (and its
# graph under create_graph); exp is evaluated in float64 and rounded, as the exp op
_math("asinh", _float32_or(kernels.asinhf, _f64(np.arcsinh)), "AsinhBackward0", "self", "grad * (self.pow(2) + 1).rsqrt()",
      lambda grad, xp, self: (grad * xp.rsqrt(_square(xp, self) + 1),), aliases=("arcsinh",))
_math("acosh", _float32_or(kernels.acoshf, _f64(np.arccosh)), "AcoshBackward0", "self", "grad * (self.pow(2) - 1).rsqrt()",
      lambda grad, xp, self: (grad * xp.rsqrt(_square(xp, self) - 1),), aliases=("arccosh",))
_math("atanh", _float32_or(kernels.atanhf, _f64_or(kernels.unary64("atanh"), _f64(np.arctanh))), "AtanhBackward0", "self", "grad * 1 / (1 - self.pow(2))",
      lambda grad, xp, self: (grad / (1 - self * self),), aliases=("arctanh",))
_math("erf", vml_kernel("erf", _as64(_erf64)), "ErfBackward0", "self", "2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad",
      lambda grad, xp, self: ((2.0 / _SQRT_PI) * _exp_of(xp, -_square(xp, self)) * grad,))
_math("erfc", vml_kernel("erfc", _as64(_erfc64)), "ErfcBackward0", "self", "-2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad",
      lambda grad, xp, self: ((-2.0 / _SQRT_PI) * _exp_of(xp, -_square(xp, self)) * grad,))
_math("erfinv", vml_kernel("erfinv", _as64(_erfinv64)), "ErfinvBackward0", "result", "0.5 * sqrt(M_PI) * exp(self.erfinv().pow(2)) * grad",
      lambda grad, xp, result: ((0.5 * _SQRT_PI) * _exp_of(xp, _square(xp, result)) * grad,))
def _f32_or_64(kernel32, fn64):
    """kernel32 (PyTorch's float32 steps, engine/kernels.py) for float32 arrays, fn64 in float64
    rounded once for the other dtypes."""
    as64 = _as64(fn64)

    def f(a):
        return kernel32(a) if a.dtype == np.float32 else as64(a)
    f.__name__ = fn64.__name__
    return f


_digamma = _float32_or(kernels.digamma, lambda a: kernels.digamma(a) if a.dtype == np.float64 else _as64(_digamma64)(a))
_trigamma = _f32_or_64(kernels.trigamma, _trigamma64)
# float64: Sleef's lgamma on every element (vml.h's map); without the C kernels MKL's
_math("lgamma", _float32_or(kernels.lgammaf, _f64_or(kernels.sleef64["lgamma"] if kernels.HAS_C64 else None,
                                                     vml_kernel("lgamma", _as64(_lgamma64)))), "LgammaBackward0", "self", "grad * digamma(self)",
      lambda grad, xp, self: (grad * _digamma_of(xp, self),))
_math("digamma", _digamma, "DigammaBackward0", "self", "grad * polygamma(1, self)",
      lambda grad, xp, self: (grad * (_polygamma(1, self) if xp.tensors else xp.constant(_trigamma(xp.raw(self)))),))
_math("trunc", lambda a: np.trunc(a) if a.dtype.kind in "fV" else a.copy(), "TruncBackward0", None,
      "zeros_like(grad)", lambda grad, xp: (xp.zeros_like(grad),), float_only=False, aliases=("fix",))
_math("frac", lambda a: a - np.trunc(a), "FracBackward0", None, "grad", lambda grad, xp: (grad,))
_math("exp2", _float32_or(kernels.exp2, _f64_or(kernels.unary64("exp2"), _as64(np.exp2))), "Exp2Backward0", "result", "grad * result * M_LN2",
      lambda grad, xp, result: (grad * result * _LN2,))
_math("deg2rad", lambda a: (a * a.dtype.type(math.pi / 180)).astype(a.dtype), "Deg2RadBackward0", None,
      "grad * M_PI / 180", lambda grad, xp: (grad * (math.pi / 180),))
_math("rad2deg", lambda a: (a * a.dtype.type(180 / math.pi)).astype(a.dtype), "Rad2DegBackward0", None,
      "grad * 180 / M_PI", lambda grad, xp: (grad * (180 / math.pi),))
_math("sinc", _float32_or(kernels.sincf, _as64(lambda a: np.sinc(a))), "SincBackward0", "self",
      "((M_PI * self * (M_PI * self).cos() - (M_PI * self).sin()) / (M_PI * self * self)) * grad",
      lambda grad, xp, self: (grad * _sinc_slope(xp, self),))
def _bessel(kernel, fn64):
    """ATen's calc_i0 & co. (kernels.bessel_*) for float32 and float64, fn64 rounded once else."""
    return _float32_or(lambda a: kernel(a), lambda a: kernel(a) if a.dtype == np.float64 else _as64(fn64)(a))


_math("i0", _bessel(kernels.bessel_i0, np.i0), "I0Backward0", "self", "grad * at::special_i1(self)",
      lambda grad, xp, self: (grad * (special_i1(self) if xp.tensors else _apply(xp, self, _i1_kernel)),))


@rule("SpecialI1Backward0", ("self",), ("grad * (i0(self) - i1(self) / self), 0.5 * grad at 0",), saved=("self",))
def SpecialI1Backward0(grad, xp, self):
    x = xp.raw(self)
    if xp.tensors:
        safe = self + xp.constant((x == 0).astype(x.dtype))     # i1(x) / x is 1/2 at 0
        return (grad * xp.where(x == 0, xp.constant(np.full(x.shape, 0.5, x.dtype)), self.i0() - special_i1(self) / safe),)
    with np.errstate(all="ignore"):
        x64 = x.astype(np.float64)
        d = np.where(x == 0, 0.5, np.i0(x64) - _i1(x64) / x64)
    return (grad * xp.constant(d.astype(x.dtype)),)


def special_i1(self):
    """torch.special.i1: i0's derivative (a kernel of create_graph; not a torch.* name here yet)."""
    return result(_i1_kernel(self._a), SpecialI1Backward0, (self,), (self,))


declare("special_i1", special_i1, method=False, function=False, rules=[SpecialI1Backward0])


def _i1_kernel(a):
    return kernels.bessel_i1(a) if a.dtype in (np.float32, np.float64) else _as64(_i1)(a)


def _dsinc(x):
    px = np.pi * x
    with np.errstate(all="ignore"):
        d = (px * np.cos(px) - np.sin(px)) / (px * x)
    return np.where(x == 0, 0.0, d)


def _i1(x):
    total = np.zeros_like(x, dtype=np.float64)
    term = x / 2
    k = 0
    while k < 60:
        total = total + term
        k += 1
        term = term * (x * x / 4) / (k * (k + 1))
    return total


def _square(xp, t):
    return t.pow(2) if xp.tensors else t * t      # pow(x, 2) is x * x, exactly


def _exp_of(xp, t):
    return t.exp() if xp.tensors else exp_kernel(t)


def _apply(xp, t, fn):
    """fn (a float64 array function) at a saved value, as a constant of the backward graph."""
    raw = xp.raw(t)
    return xp.constant(np.asarray(fn(raw), np.float64).astype(raw.dtype))


def _erfinv_of(xp, t):
    # under create_graph the op itself, so that second derivatives flow through it
    return t.erfinv() if xp.tensors else _apply(xp, t, _erfinv64)


def _digamma_of(xp, t):
    return t.digamma() if xp.tensors else xp.constant(_digamma(xp.raw(t)))


def _sinc_slope(xp, t):
    """d sinc / dx = (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 at x = 0."""
    if not xp.tensors:
        return _apply(xp, t, _dsinc)
    zero = xp.raw(t) == 0
    safe = xp.where(zero, 1.0, t)   # no 0/0 in the graph where the slope is 0
    px = safe * math.pi
    return xp.where(zero, 0.0, (px * px.cos() - px.sin()) / (px * safe))


@rule("LogitBackward0", ("self",), ("grad / (self * (1 - self))",), saved=("self",), ctx=("eps",))
def LogitBackward0(grad, xp, self, eps):
    x = xp.raw(self)
    inside = np.ones(x.shape, bool) if eps is None else (x >= eps) & (x <= 1 - eps)
    return (grad / (self * (1 - self)) * xp.mask(inside, grad),)


@declare("logit", rules=[LogitBackward0], inplace=unary_inplace(lambda self, *args, **kw: logit(self, *args, **kw)))
def logit(self, eps=None):
    a = self._a if self._a.dtype.kind in "fV" else self._a.astype(D.DEFAULT_FLOAT[0].np)
    x = a if eps is None else np.clip(a, eps, 1 - eps)
    with np.errstate(all="ignore"):
        out = _logit32(x) if x.dtype in (np.float32, np.float64) else _f64(lambda v: np.log(v / (1 - v)))(x)
    return result(out, LogitBackward0, (self,), (self,), eps)


def _logit32(x):
    """logit's float32 kernel: a contiguous tensor as x / (1 - x) (inf at 1), then MKL's VML
    log (LogitMKLKernel); others (or without MKL) through cpu_kernel_vec, Sleef's logf in the
    vectorised body and glibc's in the tail."""
    one = x.dtype.type(1)      # (float64 the same way, Sleef's and libm's log)
    ratio = np.where(x == 1, x.dtype.type(np.inf), x / (one - x))
    if x.flags.c_contiguous or x.flags.f_contiguous:
        out = vml("log", ratio)
        if out is not None:
            return out.reshape(x.shape)
    return kernels.logit(x)


# ================================================================ two-input functions
def _binary(name, kernel, node, formulas, deriv, *, floating=True, method=True, inplace=True, aliases=(),
            scalar_node=None):
    """Declare a two-input elementwise op: `deriv(grad, xp, self, other)` gives both
    gradients at full shape; broadcasting is undone here."""
    def fn(grad, xp, self, other, self_shape, other_shape):
        ga, gb = deriv(grad, xp, self, other)
        return (None if self_shape is None or ga is None else xp.sum_to(ga, self_shape),
                None if other_shape is None or gb is None else xp.sum_to(gb, other_shape))
    spec = rule(node, ("self", "other"), formulas, saved=("self", "other"), ctx=("self_shape", "other_shape"),
                key=f"{node} {name}" if node == "NotImplemented" else None)(fn)
    # PyTorch's node for a Python-number `other` (fmod.Scalar: FmodBackward0) when it differs
    scalar_spec = spec if scalar_node is None else rule(scalar_node, ("self", "other"), formulas,
                                                        saved=("self", "other"), ctx=("self_shape", "other_shape"),
                                                        key=scalar_node + " " + name)(fn)

    def forward(self, other):
        if type(self) is not Tensor:
            self = as_tensor(self)
        xa, xb = operands(self, other, floating=floating)
        with np.errstate(all="ignore"):
            out = np.asarray(kernel(xa, xb))
        if type(other) is not Tensor and out.dtype != xa.dtype:
            out = out.astype(xa.dtype)
        if needs(self, other):
            o = other if type(other) is Tensor else scalar_tensor(other, self)
            sa, sb = shapes(self, other)
            return result(out, spec if type(other) is Tensor else scalar_spec,
                          (self, other if type(other) is Tensor else None), (self, o), (sa, sb))
        return _new(out)
    forward.__name__ = name
    declare(name, forward, method=method, rules=[spec] if scalar_spec is spec else [spec, scalar_spec], aliases=aliases,
            inplace=binary_inplace(forward) if inplace else None)
    return forward


def _k64(fn):
    def f(a, b):
        a = np.asarray(a)
        dt = a.dtype if a.dtype.kind in "fV" else np.result_type(a, b)
        return np.asarray(fn(np.asarray(a, np.float64), np.asarray(b, np.float64))).astype(dt)
    return f


def _hypot(a, b):
    if _same_float(a, b) and np.asarray(a).dtype == np.float64:
        return kernels.hypot64(*np.broadcast_arrays(a, b))
    return _k64(np.hypot)(a, b)


hypot = _binary("hypot", _hypot, "HypotBackward0",
                ("grad * self / result", "grad * other / result"),
                lambda grad, xp, a, b: (grad * a / xp.sqrt(a * a + b * b), grad * b / xp.sqrt(a * a + b * b)))
fmod = _binary("fmod", lambda a, b: np.fmod(a, b), "FmodBackward1",
               ("grad", "-grad * self.div(other, rounding_mode='trunc')"),
               lambda grad, xp, a, b: (grad, -grad * (a.div(b, rounding_mode="trunc") if xp.tensors
                                                      else _apply(xp, a / b, np.trunc))), floating=False,
               scalar_node="FmodBackward0")
def _xlogy(a, b):
    if np.asarray(a).dtype == np.float32 and np.asarray(b).dtype == np.float32:
        return kernels.xlogy(np.asarray(a), np.asarray(b))
    return _k64(lambda a, b: np.where(a == 0, 0.0, a * np.log(b)))(a, b)


xlogy = _binary("xlogy", _xlogy, "XlogyBackward0",
                ("grad * at::xlogy((self != 0), other)", "grad * self / other"),
                lambda grad, xp, a, b: (grad * xp.log(b) * xp.mask(xp.raw(a) != 0, grad), grad * a / b))
def _same_float(a, b):
    """a and b both float32 or both float64: PyTorch's kernels (engine/kernels.py)."""
    da, db = np.asarray(a).dtype, np.asarray(b).dtype
    return da == db and (da == np.float32 or da == np.float64)


def _logaddexp(a, b):
    if _same_float(a, b):
        return kernels.logaddexp(np.asarray(a), np.asarray(b))
    return _k64(np.logaddexp)(a, b)


logaddexp = _binary("logaddexp", _logaddexp, "LogaddexpBackward0",
                    ("grad / (1 + exp(other - self))", "grad / (1 + exp(self - other))"),
                    lambda grad, xp, a, b: (grad / (1 + xp.exp(b - a)), grad / (1 + xp.exp(a - b))),
                    inplace=False)   # PyTorch has no logaddexp_
def _pow2(xp, t):
    """pow(2, t) as derivatives.yaml writes it: PyTorch's pow kernel with the number 2 as a
    0-d base, into a new row-major tensor: for float32, Sleef's powf in the vectorised body
    and libm's in the tail where t is row-major too, libm's powf element by element else."""
    if xp.tensors:
        return 2 ** t
    if t.dtype == np.float32:
        two = np.array(2, np.float32)
        if t.flags.c_contiguous:
            return kernels.pow_tensor(two, t)
        return kernels.powf_scalar_loop(np.broadcast_to(two, t.shape), np.ascontiguousarray(t))
    if t.dtype == np.float64 and t.flags.c_contiguous:
        return kernels.pow64(np.array(2.0), t)
    return np.power(t.dtype.type(2), t)


def _logaddexp2(a, b):
    if _same_float(a, b):
        return kernels.logaddexp2(np.asarray(a), np.asarray(b))
    return _k64(np.logaddexp2)(a, b)


logaddexp2 = _binary("logaddexp2", _logaddexp2, "Logaddexp2Backward0",
                     ("grad / (1 + pow(2, other - self))", "grad / (1 + pow(2, self - other))"),
                     lambda grad, xp, a, b: (grad / (1 + _pow2(xp, b - a)), grad / (1 + _pow2(xp, a - b))),
                     inplace=False)   # PyTorch has no logaddexp2_
copysign = _binary("copysign", lambda a, b: np.copysign(a, b), "CopysignBackward0",
                   ("copysign_tensor_self_backward(grad, self, result)", "zeros_like(other)"),
                   # result / self, written so the gradient keeps self's history (as PyTorch's does)
                   lambda grad, xp, a, b: (grad * (xp.mask(np.where(xp.raw(a) == 0, 0.0, np.sign(xp.raw(a)) *
                                                                    np.sign(np.copysign(1.0, xp.raw(b)))), grad)
                                                   + a * 0), xp.zeros_like(grad)))
fmax = _binary("fmax", lambda a, b: np.fmax(a, b), "FmaxBackward0",
               ("grad.masked_fill((self >= other).logical_or_(other.isnan()).logical_not_(), 0)",
                "grad.masked_fill((self >= other).logical_or_(other.isnan()), 0)"),
               lambda grad, xp, a, b: (grad * xp.mask((xp.raw(a) >= xp.raw(b)) | np.isnan(xp.raw(b)), grad),
                                       grad * xp.mask(~((xp.raw(a) >= xp.raw(b)) | np.isnan(xp.raw(b))), grad)),
               floating=False, inplace=False)
fmin = _binary("fmin", lambda a, b: np.fmin(a, b), "FminBackward0",
               ("grad.masked_fill((self <= other).logical_or_(other.isnan()).logical_not_(), 0)",
                "grad.masked_fill((self <= other).logical_or_(other.isnan()), 0)"),
               lambda grad, xp, a, b: (grad * xp.mask((xp.raw(a) <= xp.raw(b)) | np.isnan(xp.raw(b)), grad),
                                       grad * xp.mask(~((xp.raw(a) <= xp.raw(b)) | np.isnan(xp.raw(b))), grad)),
               floating=False, inplace=False)
def _not_implemented(op):
    def deriv(grad, xp, a, b):
        raise RuntimeError(f"derivative for {op} is not implemented")
    return deriv


# PyTorch defines no derivative: the result requires grad, backward through it fails
_binary("heaviside", lambda a, b: np.heaviside(a, b).astype(np.result_type(a, b)), "NotImplemented",
        ("not implemented", "not implemented"), _not_implemented("aten::heaviside"), floating=False)


def _int_binary(name, fn):
    def f(self, other):
        if type(self) is not Tensor:
            self = as_tensor(self)
        xa, xb = operands(self, other)
        return _new(np.asarray(fn(xa, xb)))
    f.__name__ = name
    declare(name, f, rules=[], inplace=binary_inplace(f))


_int_binary("gcd", np.gcd)
_int_binary("lcm", np.lcm)


@rule("LerpBackward0", ("self", "end"), ("grad * (1 - weight)", "grad * weight"),
      ctx=("weight", "self_shape", "end_shape"))
def LerpBackward0(grad, xp, weight, self_shape, end_shape):
    return (None if self_shape is None else xp.sum_to(grad * (1 - weight), self_shape),
            None if end_shape is None else xp.sum_to(grad * weight, end_shape))


@rule("LerpBackward1", ("self", "end", "weight"),
      ("grad * (1 - weight)", "grad * weight", "grad * (end - self)"), saved=("self", "end", "weight"),
      ctx=("shapes",))
def LerpBackward1(grad, xp, self, end, weight, shapes):
    gs = (grad * (1 - weight), grad * weight, grad * (end - self))
    return tuple(None if s is None else xp.sum_to(g, s) for g, s in zip(gs, shapes))


def _lerp_kernel(a, b, w):
    """ATen's lerp: start + weight * (end - start) for |weight| < 0.5, else end - (end - start) * (1 - weight);
    float32 with a fused multiply-add (its vectorised kernel), float64 plainly."""
    d = b - a
    small = np.abs(w) < 0.5
    if a.dtype == np.float32:
        return np.where(small, fma32(w, d, a), fma32(w - w.dtype.type(1), d, b))
    return np.where(small, a + w * d, b - d * (1 - w)).astype(a.dtype)


@declare("lerp", rules=[LerpBackward0, LerpBackward1],
         inplace=lambda self, end, weight: inplace(self, end, lerp, weight=weight))
def lerp(self, end, weight):
    a, b = self._a, end._a
    if type(weight) is Tensor:
        out = _lerp_kernel(a, b, weight._a)
        shp = tuple(t._a.shape if t.requires_grad else None for t in (self, end, weight))
        return result(out, LerpBackward1, (self, end, weight), (self, end, weight), shp)
    out = _lerp_kernel(a, b, np.asarray(weight, a.dtype))
    shp = (a.shape if self.requires_grad else None, b.shape if end.requires_grad else None)
    return result(np.asarray(out), LerpBackward0, (self, end), (), (weight, *shp))


def _three(name, node, formulas, kernel, deriv, needed_by):
    def fn(grad, xp, self, tensor1, tensor2, value, shapes):
        gs = deriv(grad, xp, self, tensor1, tensor2, value)
        return tuple(None if s is None else xp.sum_to(g, s) for g, s in zip(gs, shapes))
    spec = rule(node, ("self", "tensor1", "tensor2"), formulas, saved=("self", "tensor1", "tensor2"),
                ctx=("value", "shapes"), needed_by=needed_by)(fn)

    def forward(self, tensor1, tensor2, *, value=1):
        dt = D.result_type((self, tensor1, tensor2))
        a, b, c = (t._a.astype(dt.np, copy=False) for t in (self, tensor1, tensor2))
        out = np.asarray(kernel(a, b, c, dt.np.type(value))).astype(dt.np, copy=False)
        shp = tuple(t._a.shape if t.requires_grad else None for t in (self, tensor1, tensor2))
        return result(out, spec, (self, tensor1, tensor2), (self, tensor1, tensor2), (value, shp))
    forward.__name__ = name
    sig = "Tensor tensor1, Tensor tensor2, *, Number value = 1"
    declare(name, scalar_first(forward, name, 2, "value", sig), rules=[spec],
            torch_forward=scalar_first(_torch3(forward), name, 2, "value", sig, 1),
            inplace=scalar_first(lambda self, t1, t2, *, value=1: _inplace3(self, forward, t1, t2, value),
                                 name + "_", 2, "value", sig))


def _torch3(forward):
    def fn(input, tensor1, tensor2, *, value=1, out=None):
        return forward(as_tensor(input) if type(input) is not Tensor else input, tensor1, tensor2, value=value)
    fn.__name__ = forward.__name__
    return fn


def _inplace3(self, forward, t1, t2, value):
    return binary_inplace(lambda s, o: forward(s, o[0], o[1], value=value))(self, (t1, t2))


_three("addcmul", "AddcmulBackward0", ("grad", "grad * tensor2 * value", "grad * tensor1 * value"),
       lambda a, b, c, v: fma32(v * b, c, a) if a.dtype == np.float32 else a + v * b * c,   # fused as GCC compiles it
       lambda grad, xp, s, t1, t2, v: (grad, grad * t2 * v, grad * t1 * v), needed_by=((), (2,), (1,)))
_three("addcdiv", "AddcdivBackward0", ("grad", "grad * value / tensor2", "-grad * value * tensor1 / (tensor2 * tensor2)"),
       lambda a, b, c, v: a + v * b / c,
       lambda grad, xp, s, t1, t2, v: (grad, grad * v / t2, -grad * v * t1 / (t2 * t2)), needed_by=((), (2,), (1, 2)))


@rule("PowBackward0", ("self",), ("pow_backward(grad, self, exponent)",), saved=("self",), ctx=("exponent",),
      key="PowBackward0 float_power")
def FloatPowerBackward(grad, xp, self, exponent):
    return (grad * exponent * self ** (exponent - 1),)


def _check_float_power_(self, exponent):
    if self.dtype is not D.float64:
        raise RuntimeError(f"the base given to float_power_ has dtype {legacy_scalar(self.dtype)} but the operation's "
                           "result requires dtype Double")


@declare("float_power", rules=[FloatPowerBackward],
         inplace=binary_inplace(lambda self, exponent: float_power(self, exponent), check=_check_float_power_))
def float_power(self, exponent):
    x = self._a.astype(np.float64)
    if type(exponent) is Tensor:
        out = np.power(x, exponent._a.astype(np.float64))
        return _new(out)
    with np.errstate(all="ignore"):
        out = np.power(x, float(exponent))
    if GRAD[0] and self.requires_grad:
        src = self.double()
        return result(out, FloatPowerBackward, (src,), (src,), float(exponent))
    return _new(out)


@declare("nan_to_num", rules=[], inplace=unary_inplace(lambda self, *args, **kw: nan_to_num(self, *args, **kw)))
def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
    a = self._a
    if a.dtype.kind not in "fV":
        return _new(a.copy())
    import ml_dtypes
    info = ml_dtypes.finfo(a.dtype)
    out = np.nan_to_num(a, nan=nan, posinf=info.max if posinf is None else posinf,
                        neginf=info.min if neginf is None else neginf)
    return result(out.astype(a.dtype), _NAN_TO_NUM, (self,), (self,))


@rule("NanToNumBackward0", ("self",), ("grad * at::isfinite(self)",), saved=("self",))
def _NAN_TO_NUM(grad, xp, self):
    return (grad * xp.mask(np.isfinite(xp.raw(self)), grad),)


@declare("signbit", rules=[])
def signbit(self):
    return _new(np.signbit(self._a))


@declare("positive", rules=[])
def positive(self):
    return self


@rule("SgnBackward0", ("self",), ("sgn_backward(self, grad, result)",))
def SgnBackward0(grad, xp):
    return (grad * 0,)


@declare("sgn", rules=[SgnBackward0], inplace=unary_inplace(lambda self: sgn(self)))
def sgn(self):
    return result(np.sign(self._a), SgnBackward0, (self,))


@declare("expit", method=False, function=False, rules=[])
def expit(self):
    return self.sigmoid()


@declare("isposinf", rules=[])
def isposinf(self):
    return _new(np.isposinf(self._a))


@declare("isneginf", rules=[])
def isneginf(self):
    return _new(np.isneginf(self._a))


@declare("isreal", rules=[])
def isreal(self):
    return _new(np.ones(self._a.shape, bool))


def _logical(name, fn):
    def f(self, other):
        if type(self) is not Tensor:
            self = as_tensor(self)
        b = other._a if type(other) is Tensor else other
        return _new(np.asarray(fn(self._a, b)))
    f.__name__ = name
    declare(name, f, rules=[], inplace=binary_inplace(f))


_logical("logical_and", np.logical_and)
_logical("logical_or", np.logical_or)
_logical("logical_xor", np.logical_xor)


_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6)


def _polygamma_one(n, v):
    """psi^(n)(v) for n >= 2: the recurrence up to v >= 20, then the asymptotic series."""
    if v <= 0 and v == math.floor(v):
        return math.nan
    acc = 0.0
    while v < 20:
        acc += 1 / v ** (n + 1)
        v += 1
    tail = math.factorial(n - 1) / v ** n + math.factorial(n) / (2 * v ** (n + 1))
    for k, b in enumerate(_BERNOULLI, 1):
        tail += b * math.factorial(2 * k + n - 1) / (math.factorial(2 * k) * v ** (2 * k + n))
    return (-1) ** (n + 1) * (math.factorial(n) * acc + tail)


def _polygamma64(n, x):
    if n == 1:
        return _trigamma(np.asarray(x))
    x = np.asarray(x, np.float64)
    return np.asarray([_polygamma_one(n, v) for v in x.ravel().tolist()], np.float64).reshape(x.shape)


@rule("PolygammaBackward0", ("self",), ("grad * polygamma(n + 1, self)",), saved=("self",), ctx=("n",))
def PolygammaBackward0(grad, xp, self, n):
    return (grad * (_polygamma(n + 1, self) if xp.tensors else _apply(xp, self, lambda a: _polygamma64(n + 1, a))),)


def _polygamma(n, input):
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    a = input._a
    if n == 0:   # digamma's values, recorded as PolygammaBackward0
        out = _new(a).digamma()._a
    else:
        out = _polygamma64(n, a).astype(a.dtype if a.dtype.kind in "fV" else np.float32)
    return result(out, PolygammaBackward0, (input,), (input,), n)


def _mvlgamma(input, p):
    x = input._a.astype(np.float64)
    out = p * (p - 1) / 4 * math.log(math.pi) + sum(_lgamma64(x - j / 2) for j in range(p))
    return _new(out.astype(input._a.dtype))


def _ndtr(input):
    """ATen's calc_ndtr: (1 + erf(x * M_SQRT1_2)) * 0.5 in tensor ops (C++ mul/add with Scalars:
    MulBackward1, AddBackward1)."""
    saved, CPP_FORMULA[0] = CPP_FORMULA[0], True
    try:
        return (1 + (input * _SQRT1_2).erf()) * 0.5
    finally:
        CPP_FORMULA[0] = saved


SPECIAL = {"expit": lambda input: input.sigmoid(), "erf": lambda input: input.erf(),
           "erfc": lambda input: input.erfc(), "erfinv": lambda input: input.erfinv(),
           "logit": lambda input, eps=None: input.logit(eps), "digamma": lambda input: input.digamma(),
           "psi": lambda input: input.digamma(), "gammaln": lambda input: input.lgamma(),
           "sinc": lambda input: input.sinc(), "exp2": lambda input: input.exp2(),
           "expm1": lambda input: input.expm1(), "log1p": lambda input: input.log1p(),
           "xlogy": lambda input, other: xlogy(input, other), "i0": lambda input: input.i0(),
           "logsumexp": lambda input, dim, keepdim=False: input.logsumexp(dim, keepdim),
           "softmax": lambda input, dim, dtype=None: input.softmax(dim),
           "log_softmax": lambda input, dim, dtype=None: input.log_softmax(dim),
           "polygamma": _polygamma, "multigammaln": lambda input, p: input.mvlgamma(p), "ndtr": _ndtr}
EXTRA_TORCH = {"polygamma": _polygamma, "true_divide": lambda input, other: input / other}
