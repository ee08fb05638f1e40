"""The kernels of torch.nn's layers: addmm (nn.Linear), activations, losses, convolution,
pooling, embedding, layer and batch norm, pad, one_hot.

Forwards compute in the tensor's dtype (transcendental parts in float64, rounded once);
rules are written against xp where the formula is elementwise, so create_graph works for
them; the structural ones (convolution, pooling, norms) compute their gradient on arrays.
"""
import math

import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine import kernels, metadevice, mkl, onednn
from gradrepl.engine.autograd import GRAD, Node, edge_of, run_backward
from gradrepl.engine.ops.common import is_reduced, result
from gradrepl.engine.ops.inplace import inplace, unary_inplace
from gradrepl.engine.ops.elementwise import DivBackward1, NotImplemented_, div_scalar, exp_kernel, leaky_relu
from gradrepl.engine.summation import THREADS
from gradrepl.engine.ops.linalg import mm_mat1_backward, mm_mat2_backward
from gradrepl.engine.ops.loss import reduce_loss
from gradrepl.engine.ops.registry import ABSENT, RESULT, declare, rule
from gradrepl.engine.rounding import fma32, fma64
from gradrepl.engine.tensor import Size, Tensor, _new
from gradrepl.limits import check_work
from gradrepl.engine.util import cname, legacy_scalar, pytype, shape_list, warn

_erf64 = np.frompyfunc(math.erf, 1, 1)


def _erf(x):
    return np.asarray(_erf64(x), np.float64)      # (a 0-d input gives a Python float)


def _f64(a):
    return a.astype(np.float64)


def _out(values, like):
    return np.asarray(values).astype(like.dtype, copy=False)


def _float_input(t, name):
    if type(t) is not Tensor:
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {pytype(t)}")
    if t._a.dtype.kind not in "fV":
        raise NotImplementedError(f"\"{name}\" not implemented for '{legacy_scalar(D.from_np(t._a.dtype))}'")
    return t._a


# ------------------------------------------------------------------ addmm (nn.Linear)
@rule("AddmmBackward0", ("self", "mat1", "mat2"),
      ("grad * beta (summed to self's shape)", "alpha * grad @ mat2.T", "alpha * mat1.T @ grad"),
      saved=("mat1", "mat2"), ctx=("self_shape", "beta", "alpha"), needed_by=((2,), (1,)))
def AddmmBackward0(grad, xp, node, mat1, mat2, self_shape, beta, alpha):
    e = node.edges
    g_self = xp.sum_to(grad if beta == 1 else grad * beta, self_shape) if e[0] is not None else None
    g1 = mm_mat1_backward(xp, grad, mat1, mat2) if e[1] is not None else None
    g2 = mm_mat2_backward(xp, grad, mat1, mat2) if e[2] is not None else None
    if alpha != 1:
        g1 = None if g1 is None else g1 * alpha
        g2 = None if g2 is None else g2 * alpha
    return (g_self, g1, g2)


@declare("addmm", rules=[AddmmBackward0], inplace=unary_inplace(lambda self, *args, **kw: addmm(self, *args, **kw)))
def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    a, b, c = mat1._a, mat2._a, self._a
    if a.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {a.ndim}-D tensor")
    if b.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {b.ndim}-D tensor")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
                           f"{b.shape[0]}x{b.shape[1]})")
    if a.dtype != b.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {legacy_scalar(D.from_np(a.dtype))} "
                           f"and {legacy_scalar(D.from_np(b.dtype))}")
    if c.dtype != b.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {legacy_scalar(D.from_np(c.dtype))} "
                           f"and {legacy_scalar(D.from_np(b.dtype))}")
    check_work(a.shape[0] * a.shape[1] * b.shape[1], "float")
    out = mkl.mm(a, b, np.broadcast_to(c, (a.shape[0], b.shape[1])) if beta != 0 else None, beta, alpha) \
        if c.dtype == a.dtype else None
    if out is None and is_reduced(a):    # float16/bfloat16: in float32, rounded once (PyTorch's opmath)
        prod = np.matmul(a.astype(np.float32), b.astype(np.float32))
        if alpha != 1:
            prod = prod * np.float32(alpha)
        cf = c.astype(np.float32)
        out = prod + (cf if beta == 1 else cf * np.float32(beta))
    if out is None:
        prod = np.matmul(a, b)
        if alpha != 1:
            prod = prod * a.dtype.type(alpha)
        out = prod + (c if beta == 1 else c * c.dtype.type(beta))
    return result(_out(out, a), AddmmBackward0, (self, mat1, mat2), (mat1, mat2), (c.shape, beta, alpha))


def linear(input, weight, bias=None):
    """F.linear as ATen composes it: addmm for a 2-D input with a bias (a view around it for
    other ranks), a matmul otherwise."""
    if type(input) is not Tensor:
        raise TypeError(f"linear(): argument 'input' (position 1) must be Tensor, not {pytype(input)}")
    if bias is None:
        return input.matmul(weight.t())
    x = input._a
    if x.ndim == 2:
        return addmm(bias, input, weight.t())
    if x.ndim >= 3 or x.ndim == 1:
        if x.shape[-1] != weight._a.shape[-1]:
            lead = x.shape[:-1] if x.ndim > 1 else (1,)
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({int(np.prod(lead))}x{x.shape[-1]} "
                               f"and {weight._a.shape[1]}x{weight._a.shape[0]})")
        flat = input.reshape(-1, x.shape[-1]) if x.ndim > 1 else input.unsqueeze(0)
        out = addmm(bias, flat, weight.t())
        return out.view(*x.shape[:-1], weight._a.shape[0])
    return input.matmul(weight.t()) + bias


declare("linear", linear, method=False, function=False, functional=True, rules=[])


# ------------------------------------------------------------------ activations
def _activation(input, name, fn, spec, saved, ctx):
    x = _float_input(input, name)
    out = _out(fn(x), x)
    return result(out, spec, (input,), tuple(RESULT if s is RESULT else s for s in saved), ctx)


_SQRT1_2 = 1 / math.sqrt(2)
_BETA = 2 / math.sqrt(math.pi) * _SQRT1_2 * 0.5     # M_2_SQRTPI * M_SQRT1_2 * 0.5
_KAPPA = 0.044715
_TANH_BETA = math.sqrt(2) * 2 / math.sqrt(math.pi) * 0.5


def _gelu_grad(x, approximate):
    x = _f64(x)
    if approximate == "tanh":
        inner = _TANH_BETA * (x + _KAPPA * x ** 3)
        t = np.tanh(inner)
        left = 0.5 * x
        right = 1 + t
        left_derivative = 0.5 * right
        right_derivative = left * (1 - t * t) * _TANH_BETA * (1 + 3 * _KAPPA * x * x)
        return left_derivative + right_derivative
    cdf = 0.5 * (1 + _erf(x * _SQRT1_2))
    pdf = np.exp(-0.5 * x * x) * _BETA
    return cdf + x * pdf


def _gelu_grad2(x, approximate):
    """d2 gelu / dx2 (float64 arrays, or Tensors under create_graph)."""
    arrays = type(x) is np.ndarray
    if approximate == "tanh":
        u = (x + x * x * x * _KAPPA) * _TANH_BETA
        t = np.tanh(u) if arrays else u.tanh()
        k = (1 + x * x * (3 * _KAPPA)) * _TANH_BETA
        return (1 - t * t) * (k - x * t * k * k + x * x * (3 * _TANH_BETA * _KAPPA))
    # gelu_double_backward: pdf = kBeta * exp(-0.5 * x*x); 2 * pdf - x*x * pdf, each step
    # one tensor op (in float32 for float32 tensors: exp is MKL's, as torch.exp)
    sq = x * x
    pdf = (exp_kernel(sq * -0.5) if arrays else (sq * -0.5).exp()) * _BETA
    return pdf * 2 - sq * pdf


def _f32_64(x, other=None):
    """x (and other) float32, or x (and other) float64: PyTorch's kernels of engine/kernels.py."""
    return (x.dtype == np.float32 or x.dtype == np.float64) and (other is None or other.dtype == x.dtype)


def _onednn(x):
    """PyTorch's use_mkldnn for gelu: a contiguous float32 input of more than one element."""
    return x.dtype == np.float32 and x.size > 1 and x.flags.c_contiguous


def _gelu_bw(grad_output, self, approximate):
    if approximate == "tanh" and _f32_64(self, grad_output):
        return kernels.gelu_tanh_backward(grad_output, self)
    if approximate == "none" and _onednn(self) and grad_output.dtype == np.float32 \
            and grad_output.shape == self.shape:
        return kernels.gelu_erf_dnnl_backward(grad_output, self)
    if approximate == "none" and _f32_64(self, grad_output):
        return kernels.gelu_erf_backward(grad_output, self)
    return grad_output * _out(_gelu_grad(self, approximate), self)


@rule("GeluBackwardBackward0", ("grad_output", "self"),
      ("gelu_backward(grad, self, approximate)", "grad * grad_output * gelu''(self)"),
      saved=("grad_output", "self"), ctx=("approximate",))
def GeluBackwardBackward0(grad, xp, node, grad_output, self, approximate):
    e = node.edges
    g_out = g_self = None
    if e[0] is not None:
        g_out = gelu_backward(grad, self, approximate) if xp.tensors else _gelu_bw(grad, self, approximate)
    if e[1] is not None:
        if xp.tensors:
            d2 = _gelu_grad2(self, approximate)
        elif approximate == "none" and self.dtype == np.float32:
            d2 = _gelu_grad2(self, approximate)
        else:
            d2 = _out(_gelu_grad2(_f64(self), approximate), self)
        g_self = grad * grad_output * d2
    return (g_out, g_self)


def gelu_backward(grad_output, self, approximate):
    return result(_gelu_bw(grad_output._a, self._a, approximate), GeluBackwardBackward0, (grad_output, self),
                  (grad_output, self), approximate)


declare("gelu_backward", gelu_backward, method=False, function=False, rules=[GeluBackwardBackward0])


@rule("GeluBackward0", ("self",), ("gelu_backward(grad, self, approximate)",), saved=("self",),
      ctx=("approximate",))
def GeluBackward0(grad, xp, self, approximate):
    return (gelu_backward(grad, self, approximate) if xp.tensors else _gelu_bw(grad, self, approximate),)


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")

    def fn(x):
        if approximate == "tanh" and _f32_64(x):
            return kernels.gelu_tanh(x)
        if approximate == "none" and _onednn(x):
            return kernels.gelu_erf_dnnl(x)
        if _f32_64(x):
            return kernels.gelu_erf(x)
        x = _f64(x)
        if approximate == "tanh":
            return 0.5 * x * (1 + np.tanh(_TANH_BETA * (x + _KAPPA * x ** 3)))
        return x * 0.5 * (1 + _erf(x * _SQRT1_2))
    return _activation(input, "gelu", fn, GeluBackward0, (input,), approximate)


declare("gelu", gelu, method=False, function=False, functional=True, rules=[GeluBackward0])


def _elu_bw(grad_output, x, alpha, scale, input_scale):
    if _f32_64(x, grad_output):
        return kernels.elu_backward(grad_output, x, alpha, scale, input_scale)
    d = np.where(_f64(x) <= 0, alpha * scale * input_scale * np.exp(_f64(x) * input_scale), scale)
    return grad_output * _out(d, x)


@rule("EluBackwardBackward0", ("grad_output", "self"),
      ("elu_backward(grad, alpha, scale, input_scale, self)",
       "grad * grad_output * (self > 0 ? 0 : alpha * scale * input_scale ** 2 * exp(self * input_scale))"),
      saved=("grad_output", "self"), ctx=("alpha", "scale", "input_scale"))
def EluBackwardBackward0(grad, xp, node, grad_output, self, alpha, scale, input_scale):
    e = node.edges
    g_out = g_self = None
    if e[0] is not None:
        g_out = (elu_backward(grad, self, alpha, scale, input_scale) if xp.tensors
                 else _elu_bw(grad, self, alpha, scale, input_scale))
    if e[1] is not None:
        x = xp.raw(self)
        c = alpha * scale * input_scale * input_scale
        if xp.tensors:
            neg = xp.constant(_out(_f64(x) <= 0, x))
            g_self = grad * grad_output * neg * (self * input_scale).exp() * c
        else:
            g_self = grad * grad_output * _out(np.where(_f64(x) <= 0, c * np.exp(_f64(x) * input_scale), 0.0), x)
    return (g_out, g_self)


def elu_backward(grad_output, self, alpha, scale, input_scale):
    return result(_elu_bw(grad_output._a, self._a, alpha, scale, input_scale), EluBackwardBackward0,
                  (grad_output, self), (grad_output, self), (alpha, scale, input_scale))


declare("elu_backward", elu_backward, method=False, function=False, rules=[EluBackwardBackward0])


@rule("EluBackward0", ("self",), ("elu_backward(grad, alpha, scale, input_scale, self)",),
      saved=("self",), ctx=("alpha", "scale", "input_scale"))
def EluBackward0(grad, xp, self, alpha, scale, input_scale):
    if xp.tensors:
        return (elu_backward(grad, self, alpha, scale, input_scale),)
    return (_elu_bw(grad, self, alpha, scale, input_scale),)


def _elu(input, alpha, scale, input_scale, name, spec):
    def fn(x):
        if _f32_64(x):
            return kernels.elu(x, alpha, scale, input_scale)
        x64 = _f64(x)
        return np.where(x64 > 0, x64 * scale, alpha * scale * np.expm1(x64 * input_scale))
    return _activation(input, name, fn, spec, (input,), (alpha, scale, input_scale))


def elu(input, alpha=1.0, inplace=False):
    return _elu(input, alpha, 1.0, 1.0, "elu", EluBackward0)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input, inplace=False):
    return _elu(input, _SELU_ALPHA, _SELU_SCALE, 1.0, "selu", EluBackward0)


declare("elu", elu, method=False, function=False, functional=True, rules=[EluBackward0])
declare("selu", selu, method=False, functional=True, rules=[])


@rule("CeluBackward0", ("self",), ("grad * (self > 0 ? 1 : exp(self / alpha))",), saved=("self",),
      ctx=("alpha", "scale", "input_scale"))
def CeluBackward0(grad, xp, self, alpha, scale, input_scale):
    return EluBackward0.fn(grad, xp, self, alpha, scale, input_scale)


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    return _elu(input, alpha, 1.0, 1.0 / alpha, "celu", CeluBackward0)


declare("celu", celu, method=False, functional=True, rules=[CeluBackward0])


def _sig64(x):
    return 1 / (1 + np.exp(-_f64(x)))


@rule("SiluBackward0", ("self",), ("grad * sigmoid(self) * (1 + self * (1 - sigmoid(self)))",), saved=("self",))
def SiluBackward0(grad, xp, self):
    if xp.tensors:
        sig = self.sigmoid()
        return (grad * sig * (1 + self * (1 - sig)),)
    x = xp.raw(self)
    if _f32_64(x, grad):
        return (kernels.silu_backward(grad, x),)
    s = _sig64(x)
    return (grad * xp.constant(_out(s * (1 + _f64(x) * (1 - s)), x)),)


def _silu(x):
    return kernels.silu(x) if _f32_64(x) else _f64(x) * _sig64(x)


def silu(input, inplace=False):
    return _activation(input, "silu", _silu, SiluBackward0, (input,), None)


declare("silu", silu, method=False, function=False, functional=True, rules=[SiluBackward0])


@rule("MishBackward0", ("self",), ("grad * (tanh(softplus(self)) + self * sigmoid(self) * (1 - tanh(softplus(self))^2))",),
      saved=("self",))
def MishBackward0(grad, xp, self):
    if xp.tensors:
        t = softplus(self).tanh()
        return (grad * (t + self * self.sigmoid() * (1 - t * t)),)
    x = xp.raw(self)
    if _f32_64(x, grad):
        return (kernels.mish_backward(grad, x),)
    x64 = _f64(x)
    t = np.tanh(np.logaddexp(0, x64))
    return (grad * xp.constant(_out(t + x64 * _sig64(x) * (1 - t * t), x)),)


def mish(input, inplace=False):
    return _activation(input, "mish", lambda x: kernels.mish(x) if _f32_64(x) else
                       _f64(x) * np.tanh(np.logaddexp(0, _f64(x))), MishBackward0,
                       (input,), None)


declare("mish", mish, method=False, function=False, functional=True, rules=[MishBackward0])


@rule("SoftplusBackward0", ("self",), ("softplus_backward(grad, self, beta, threshold)",),
      saved=("self",), ctx=("beta", "threshold"))
def SoftplusBackward0(grad, xp, self, beta, threshold):
    if xp.tensors:
        return (softplus_backward(grad, self, beta, threshold),)
    return (_softplus_bw(grad, self, beta, threshold),)


def _softplus_bw(grad_output, x, beta, threshold):
    if _f32_64(x, grad_output):
        return kernels.softplus_backward(grad_output, x, beta, threshold)
    z = np.exp(_f64(x) * beta)
    d = np.where(_f64(x) * beta > threshold, 1.0, z / (z + 1))
    return grad_output * _out(d, x)


@rule("SoftplusBackwardBackward0", ("grad_output", "self"),
      ("softplus_backward(grad, self, beta, threshold)",
       "grad * grad_output * (self * beta > threshold ? 0 : beta * sigmoid(beta * self) * (1 - sigmoid(beta * self)))"),
      saved=("grad_output", "self"), ctx=("beta", "threshold"))
def SoftplusBackwardBackward0(grad, xp, node, grad_output, self, beta, threshold):
    e = node.edges
    g_out = g_self = None
    if e[0] is not None:
        g_out = (softplus_backward(grad, self, beta, threshold) if xp.tensors
                 else _softplus_bw(grad, self, beta, threshold))
    if e[1] is not None:
        x = xp.raw(self)
        inside = _f64(x) * beta <= threshold
        if xp.tensors:
            s = (self * beta).sigmoid()
            g_self = grad * grad_output * xp.constant(_out(inside, x)) * s * (1 - s) * beta
        else:
            s = _sig64(_f64(x) * beta)
            g_self = grad * grad_output * _out(np.where(inside, beta * s * (1 - s), 0.0), x)
    return (g_out, g_self)


def softplus_backward(grad_output, self, beta, threshold):
    return result(_softplus_bw(grad_output._a, self._a, beta, threshold), SoftplusBackwardBackward0,
                  (grad_output, self), (grad_output, self), (beta, threshold))


declare("softplus_backward", softplus_backward, method=False, function=False, rules=[SoftplusBackwardBackward0])


def softplus(input, beta=1.0, threshold=20.0):
    def fn(x):
        if _f32_64(x):
            return kernels.softplus(x, beta, threshold)
        xb = _f64(x) * beta
        with np.errstate(over="ignore"):
            return np.where(xb > threshold, _f64(x), np.log1p(np.exp(xb)) / beta)
    return _activation(input, "softplus", fn, SoftplusBackward0, (input,), (beta, threshold))


declare("softplus", softplus, method=False, function=False, functional=True, rules=[SoftplusBackward0])


@rule("HardtanhBackward0", ("self",), ("hardtanh_backward(grad, self, min_val, max_val)",), saved=("self",),
      ctx=("min_val", "max_val"))
def HardtanhBackward0(grad, xp, self, min_val, max_val):
    if xp.tensors:
        return (hardtanh_backward(grad, self, min_val, max_val),)
    return (_hardtanh_bw(grad, self, min_val, max_val),)


def _hardtanh_bw(grad_output, x, min_val, max_val):
    return np.where((x <= min_val) | (x >= max_val), 0, grad_output).astype(grad_output.dtype, copy=False)


@rule("HardtanhBackwardBackward0", ("grad_output", "self"),
      ("hardtanh_backward(grad, self, min_val, max_val)", "zeros_like(grad)"), saved=("self",),
      ctx=("min_val", "max_val"))
def HardtanhBackwardBackward0(grad, xp, node, self, min_val, max_val):
    e = node.edges
    return (None if e[0] is None else (hardtanh_backward(grad, self, min_val, max_val) if xp.tensors
                                       else _hardtanh_bw(grad, self, min_val, max_val)),
            None if e[1] is None else xp.zeros_like(grad))


def hardtanh_backward(grad_output, self, min_val, max_val):
    return result(_hardtanh_bw(grad_output._a, self._a, min_val, max_val), HardtanhBackwardBackward0,
                  (grad_output, self), (self,), (min_val, max_val))


declare("hardtanh_backward", hardtanh_backward, method=False, function=False, rules=[HardtanhBackwardBackward0])


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    x = _float_input(input, "hardtanh")
    out = np.clip(x, x.dtype.type(min_val), x.dtype.type(max_val))
    return result(out, HardtanhBackward0, (input,), (input,), (min_val, max_val))


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0)


declare("hardtanh", hardtanh, method=False, function=False, functional=True, rules=[HardtanhBackward0])


FUNCTIONAL_INPLACE = {}   # F.elu_ & co. by name (torch.selu_ / torch.celu_ are the same functions)


def _functional_inplace(name, forward):
    """F.elu_(x) & co.: the activation written into its input, with the in-place checks (the
    node keeps the out-of-place name: EluBackward0 where PyTorch shows EluBackward1)."""
    def method(input, *args, **kwargs):
        return inplace(input, None, lambda s, _other: forward(s, *args, **kwargs))
    method.__name__ = name
    FUNCTIONAL_INPLACE[name] = method
    declare(name, method, method=False, function=False, functional=True, rules=[])


for _name, _forward in (("elu_", elu), ("selu_", selu), ("celu_", celu), ("hardtanh_", hardtanh),
                        ("leaky_relu_", leaky_relu), ("relu_", lambda input: input.relu())):
    _functional_inplace(_name, _forward)
declare("relu6", relu6, method=False, function=False, functional=True, rules=[])


@rule("HardsigmoidBackward0", ("self",), ("grad / 6 where -3 < self < 3",), saved=("self",))
def HardsigmoidBackward0(grad, xp, self):
    x = xp.raw(self)
    if xp.tensors:   # PyTorch's hardsigmoid_backward has no derivative of its own
        out = np.where((x <= -3) | (x >= 3), 0, xp.raw(grad) * _ONE_SIXTH).astype(x.dtype)
        return (result(out, NotImplemented_, tuple(t for t in (grad, self) if t.requires_grad), (),
                       "aten::hardsigmoid_backward"),)
    return (xp.zero_where((x <= -3) | (x >= 3), grad * _ONE_SIXTH),)


def _hardsigmoid(x):
    """min(max(x + 3, 0), 6) / 6 in the tensor's dtype (float32 for reduced ones), as its kernel."""
    t = x if x.dtype in (np.float32, np.float64) else x.astype(np.float32)
    three, six = t.dtype.type(3), t.dtype.type(6)
    return np.minimum(np.maximum(t + three, t.dtype.type(0)), six) / six


def _hardswish(x):
    """x * min(max(x + 3, 0), 6) / 6, as _hardsigmoid."""
    t = x if x.dtype in (np.float32, np.float64) else x.astype(np.float32)
    three, six = t.dtype.type(3), t.dtype.type(6)
    return t * np.minimum(np.maximum(t + three, t.dtype.type(0)), six) / six


_ONE_SIXTH = float(np.float32(1.0) / np.float32(6.0))   # PyTorch's `1.0f / 6.0f`, in every dtype


def hardsigmoid(input, inplace=False):
    return _activation(input, "hardsigmoid", _hardsigmoid, HardsigmoidBackward0,
                       (input,), None)


declare("hardsigmoid", hardsigmoid, method=False, function=False, functional=True, rules=[HardsigmoidBackward0])


@rule("HardswishBackward0", ("self",), ("hardswish_backward(grad, self)",),
      saved=("self",))
def HardswishBackward0(grad, xp, self):
    if xp.tensors:
        return (hardswish_backward(grad, self),)
    return (_hardswish_bw(grad, self),)


def _hardswish_bw(grad_output, x):
    if x.dtype == np.float32 and grad_output.dtype == np.float32:
        return kernels.hardswish_backward(grad_output, x)
    d = np.where(x < -3, 0.0, np.where(x <= 3, _f64(x) / 3 + 0.5, 1.0))
    return grad_output * _out(d, x)


@rule("HardswishBackwardBackward0", ("grad_output", "self"),
      ("hardswish_backward(grad, self)", "grad * grad_output / 3 where -3 < self < 3, else 0"),
      saved=("grad_output", "self"))
def HardswishBackwardBackward0(grad, xp, node, grad_output, self):
    e = node.edges
    g_out = g_self = None
    if e[0] is not None:
        g_out = hardswish_backward(grad, self) if xp.tensors else _hardswish_bw(grad, self)
    if e[1] is not None:
        x = xp.raw(self)
        g_self = xp.zero_where((x <= -3) | (x >= 3), grad * grad_output / 3)
    return (g_out, g_self)


def hardswish_backward(grad_output, self):
    return result(_hardswish_bw(grad_output._a, self._a), HardswishBackwardBackward0, (grad_output, self),
                  (grad_output, self))


declare("hardswish_backward", hardswish_backward, method=False, function=False, rules=[HardswishBackwardBackward0])


def hardswish(input, inplace=False):
    return _activation(input, "hardswish", _hardswish, HardswishBackward0,
                       (input,), None)


declare("hardswish", hardswish, method=False, function=False, functional=True, rules=[HardswishBackward0])


@rule("LogSigmoidBackward0", ("self",), ("log_sigmoid_backward(grad, self)",), saved=("self",))
def LogSigmoidBackward0(grad, xp, self):
    if xp.tensors:
        return (log_sigmoid_backward(grad, self),)
    return (_log_sigmoid_bw(grad, self),)


def _log_sigmoid_bw(grad_output, x):
    if _f32_64(x, grad_output):
        return kernels.log_sigmoid_backward(grad_output, x, kernels.log_sigmoid(x)[1])
    return grad_output * _out(_sig64(-_f64(x)), x)


@rule("LogSigmoidBackwardBackward0", ("grad_output", "self"),
      ("log_sigmoid_backward(grad, self)", "-grad * grad_output * sigmoid(self) * sigmoid(-self)"),
      saved=("grad_output", "self"))
def LogSigmoidBackwardBackward0(grad, xp, node, grad_output, self):
    e = node.edges
    g_out = g_self = None
    if e[0] is not None:
        g_out = log_sigmoid_backward(grad, self) if xp.tensors else _log_sigmoid_bw(grad, self)
    if e[1] is not None:
        if xp.tensors:
            g_self = -(grad * grad_output * self.sigmoid() * (-self).sigmoid())
        else:
            x64 = _f64(self)
            g_self = grad * grad_output * _out(-_sig64(x64) * _sig64(-x64), self)
    return (g_out, g_self)


def log_sigmoid_backward(grad_output, self):
    return result(_log_sigmoid_bw(grad_output._a, self._a), LogSigmoidBackwardBackward0, (grad_output, self),
                  (grad_output, self))


declare("log_sigmoid_backward", log_sigmoid_backward, method=False, function=False,
        rules=[LogSigmoidBackwardBackward0])


def _log_sigmoid(x):
    if _f32_64(x):
        return kernels.log_sigmoid(x)[0]
    x64 = _f64(x)
    return np.minimum(x64, 0) - np.log1p(np.exp(-np.abs(x64)))


def logsigmoid(input):
    return _activation(input, "log_sigmoid_forward", _log_sigmoid, LogSigmoidBackward0, (input,), None)


declare("logsigmoid", logsigmoid, method=False, function=False, functional=True, rules=[LogSigmoidBackward0])


# ------------------------------------------------------------------ losses
_REDUCTIONS = ("none", "mean", "sum")


def _reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


def _check_target_size(input, target):
    if input._a.shape != target._a.shape:
        warn("UserWarning", f"Using a target size ({Size(target._a.shape)!r}) that is different to the input size "
                            f"({Size(input._a.shape)!r}). This will likely lead to incorrect results due to "
                            "broadcasting. Please ensure they have the same size.")


def _pairwise(input, target):
    x, y = np.broadcast_arrays(input._a, target._a)
    return x, y


def _smooth_l1_local(x, y, beta):
    d = _f64(x) - _f64(y)
    return np.where(d < -beta, -1.0, np.where(d > beta, 1.0, d / beta if beta else 0.0))


def _huber_local(x, y, delta):
    return np.clip(_f64(x) - _f64(y), -delta, delta)


def _pointwise_loss_bw32(x, y, grad_output, reduction, param, smooth):
    """PyTorch's float32 smooth_l1 / huber backward kernels: with d = x - y and norm = 1/N
    (mean) or 1: outside (-param, param) -+norm * g (huber: norm * delta * g), inside
    norm * (d / beta) * g, huber's norm * d * g."""
    f32 = np.float32
    d = x - y
    norm = f32(1) / f32(x.size) if reduction == "mean" else f32(1)
    p = f32(param)
    if smooth:
        inside = norm * (d / p) * grad_output
        edge = norm * grad_output
    else:
        inside = norm * d * grad_output
        edge = norm * p * grad_output
    return np.where(d <= -p, -edge, np.where(d >= p, edge, inside)).astype(f32)


def _pointwise_loss_bw(local, smooth):
    """The array kernel of smooth_l1_loss_backward / huber_loss_backward: grad * local / N
    (in the broadcast shape of self and target)."""
    def kernel(grad_output, self, target, reduction, param):
        x, y = np.broadcast_arrays(self, target)
        if x.dtype == np.float32 and y.dtype == np.float32 and np.asarray(grad_output).dtype == np.float32 \
                and (param > 0 or not smooth):
            return _pointwise_loss_bw32(x, y, grad_output, reduction, param, smooth)
        g = _out(local(x, y, param), x)
        if reduction == "mean":
            g = g / x.size
        return g * grad_output
    return kernel


_smooth_l1_bw = _pointwise_loss_bw(_smooth_l1_local, True)
_huber_bw = _pointwise_loss_bw(_huber_local, False)


def _pointwise_loss_double(name, kernel, inside):
    """The rule of SmoothL1LossBackwardBackward0 / HuberLossBackwardBackward0: the gradient is
    linear in grad_output, and in self - target where |self - target| < param (slope `inside`)."""
    @rule(name, ("grad_output", "self", "target"),
          (f"{name[:-len('BackwardBackward0')]}_backward(grad, self, target) summed to grad_output's shape",
           "grad * grad_output * slope where |self - target| < param / N", "-(the same)"),
          saved=("grad_output", "self", "target"), ctx=("reduction", "param"))
    def double(grad, xp, node, grad_output, self, target, reduction, param):
        e = node.edges
        g_out = g_self = g_target = None
        if e[0] is not None:
            g = op(grad, self, target, reduction, param) if xp.tensors else kernel(grad, self, target, reduction, param)
            g_out = xp.sum_to(g, tuple(grad_output.shape))
        if e[1] is not None or e[2] is not None:
            x, y = np.broadcast_arrays(xp.raw(self), xp.raw(target))
            d = np.abs(_f64(x) - _f64(y))
            slope = _out(np.where(d < param, inside(param), 0.0), x)
            if reduction == "mean":
                slope = slope / x.size
            h = grad * grad_output * xp.constant(slope)
            g_self = None if e[1] is None else xp.sum_to(h, tuple(self.shape))
            g_target = None if e[2] is None else xp.sum_to(-h, tuple(target.shape))
        return (g_out, g_self, g_target)

    def op(grad_output, self, target, reduction, param):
        return result(kernel(grad_output._a, self._a, target._a, reduction, param), double,
                      (grad_output, self, target), (grad_output, self, target), (reduction, param))
    return double, op


SmoothL1LossBackwardBackward0, smooth_l1_loss_backward = _pointwise_loss_double(
    "SmoothL1LossBackwardBackward0", _smooth_l1_bw, lambda beta: 1.0 / beta if beta else 0.0)
HuberLossBackwardBackward0, huber_loss_backward = _pointwise_loss_double(
    "HuberLossBackwardBackward0", _huber_bw, lambda delta: 1.0)
declare("smooth_l1_loss_backward", smooth_l1_loss_backward, method=False, function=False,
        rules=[SmoothL1LossBackwardBackward0])
declare("huber_loss_backward", huber_loss_backward, method=False, function=False, rules=[HuberLossBackwardBackward0])


def _loss_grads(grad, xp, node, op, kernel, self, target, reduction, param):
    """(d self, d target) of a pointwise loss: its backward kernel, run as an op under create_graph."""
    e = node.edges
    if xp.tensors:
        return (None if e[0] is None else xp.sum_to(op(grad, self, target, reduction, param), tuple(self.shape)),
                None if e[1] is None else xp.sum_to(op(grad, target, self, reduction, param), tuple(target.shape)))
    g = kernel(grad, self, target, reduction, param)
    return (xp.sum_to(g, self.shape), xp.sum_to(-g, target.shape))


@rule("SmoothL1LossBackward0", ("self", "target"),
      ("smooth_l1_loss_backward(grad, self, target)  (grad * clamp((self - target) / beta, -1, 1) / N)",
       "smooth_l1_loss_backward(grad, target, self)"),
      saved=("self", "target"), ctx=("reduction", "beta"))
def SmoothL1LossBackward0(grad, xp, node, self, target, reduction, beta):
    return _loss_grads(grad, xp, node, smooth_l1_loss_backward, _smooth_l1_bw, self, target, reduction, beta)


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _check_target_size(input, target)
    reduction = _reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    x, y = _pairwise(input, target)
    if x.dtype == np.float32 and y.dtype == np.float32:    # smooth_l1_kernel, in float32
        b, half = np.float32(beta), np.float32(0.5)
        z = np.abs(x - y)
        with np.errstate(divide="ignore", invalid="ignore"):
            losses = np.where(z < b, half * z * z / b, z - half * b)
    else:
        z = np.abs(_f64(x) - _f64(y))
        losses = np.where(z < beta, 0.5 * z * z / (beta or 1), z - 0.5 * beta)
    return result(reduce_loss(losses, reduction, x), SmoothL1LossBackward0, (input, target), (input, target),
                  (reduction, beta))


declare("smooth_l1_loss", smooth_l1_loss, method=False, function=False, functional=True,
        rules=[SmoothL1LossBackward0])


@rule("HuberLossBackward0", ("self", "target"),
      ("huber_loss_backward(grad, self, target)  (grad * clamp(self - target, -delta, delta) / N)",
       "huber_loss_backward(grad, target, self)"),
      saved=("self", "target"), ctx=("reduction", "delta"))
def HuberLossBackward0(grad, xp, node, self, target, reduction, delta):
    return _loss_grads(grad, xp, node, huber_loss_backward, _huber_bw, self, target, reduction, delta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    _check_target_size(input, target)
    reduction = _reduction(reduction)
    x, y = _pairwise(input, target)
    if x.dtype == np.float32 and y.dtype == np.float32:    # huber_kernel, in float32
        d, half = np.float32(delta), np.float32(0.5)
        z = np.abs(x - y)
        losses = np.where(z < d, half * z * z, d * (z - half * d))
    else:
        z = np.abs(_f64(x) - _f64(y))
        losses = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))
    return result(reduce_loss(losses, reduction, x), HuberLossBackward0, (input, target), (input, target),
                  (reduction, delta))


declare("huber_loss", huber_loss, method=False, function=False, functional=True, rules=[HuberLossBackward0])


@rule("BinaryCrossEntropyWithLogitsBackward0", ("self", "target"),
      ("grad * ((pos_weight * target + 1 - target) * sigmoid(self) - pos_weight * target) * weight / N",
       "grad * (log(1 - sigmoid(self)) - pos_weight * log(sigmoid(self))) * weight / N"),
      saved=("self", "target"), ctx=("weight", "pos_weight", "reduction"))
def BinaryCrossEntropyWithLogitsBackward0(grad, xp, node, self, target, weight, pos_weight, reduction):
    x, y = xp.raw(self), xp.raw(target)
    if xp.tensors:
        return _bce_logits_graph(grad, xp, node, self, target, weight, pos_weight, reduction)
    if _bce_logits_f32(x, y, weight, pos_weight) and grad.dtype == x.dtype:
        # binary_cross_entropy_with_logits_backward as PyTorch composes it, each op in the dtype:
        # (sigmoid(x) - t) * grad, or ((pw * t + 1 - t) * sigmoid(x) - pw * t) * grad; * weight; / numel
        f32 = x.dtype.type
        sig = kernels.sigmoid(np.ascontiguousarray(x))
        if pos_weight is None:
            g_in = sig - y
        else:
            t = pos_weight * y
            g_in = ((t + f32(1)) - y) * sig - t
        g_in = g_in * grad
        if weight is not None:
            g_in = g_in * weight
        if reduction == "mean":
            g_in = g_in / f32(x.size)
        g_t = None
        if node.edges[1] is not None:
            # binary_cross_entropy_with_logits_target_backward: -self * grad, or
            # (log_sigmoid(-x) - log_sigmoid(x) * pw) * grad; * weight; / numel
            if pos_weight is None:
                g_t = -x * grad
            else:
                log_sig = kernels.log_sigmoid(np.ascontiguousarray(x))[0]
                g_t = (kernels.log_sigmoid(np.ascontiguousarray(-x))[0] - log_sig * pos_weight) * grad
            if weight is not None:
                g_t = g_t * weight
            if reduction == "mean":
                g_t = g_t / f32(y.size)
            g_t = xp.constant(np.asarray(g_t, f32))
        return (xp.constant(np.asarray(g_in, f32)), g_t)
    s = _sig64(x)
    y64 = _f64(y)
    scale = (1.0 if weight is None else weight) / (x.size if reduction == "mean" else 1)
    if pos_weight is None:
        d_in = s - y64
    else:
        d_in = (pos_weight * y64 + 1 - y64) * s - pos_weight * y64
    g_in = grad * xp.constant(_out(d_in * scale, x))
    g_t = None
    if node.edges[1] is not None:
        d_t = -_f64(x) if pos_weight is None else np.log1p(-s) - pos_weight * np.log(s)
        g_t = grad * xp.constant(_out(d_t * scale, x))
    return (g_in, g_t)


def _bce_logits_graph(grad, xp, node, self, target, weight, pos_weight, reduction):
    """Under create_graph: PyTorch's binary_cross_entropy_with_logits_backward, composed of ops."""
    x = xp.raw(self)
    e = node.edges
    g_in = g_t = None
    sig = self.sigmoid()
    if e[0] is not None:
        if pos_weight is None:
            g_in = (sig - target) * grad
        else:
            t = xp.constant(_out(pos_weight, x)) * target
            g_in = ((t + 1 - target) * sig - t) * grad
    if e[1] is not None:
        if pos_weight is None:
            g_t = -self * grad
        else:
            g_t = ((1 - sig).log() - xp.constant(_out(pos_weight, x)) * sig.log()) * grad
    out = []
    for g in (g_in, g_t):
        if g is not None and weight is not None:
            g = g * xp.constant(_out(weight, x))
        if g is not None and reduction == "mean":
            g = div_scalar(g, x.size)
        out.append(g)
    return tuple(out)


def _bce_logits_f32(x, y, weight, pos_weight):
    """float32 (or float64) input, target and weights: PyTorch's ops are followed step by step
    in that dtype."""
    dt = x.dtype
    return (dt == np.float32 or dt == np.float64) and all(a is None or a.dtype == dt for a in (y, weight, pos_weight))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    reduction = _reduction(reduction)
    if input._a.shape != target._a.shape:
        raise ValueError(f"Target size ({Size(target._a.shape)!r}) must be the same as input size "
                         f"({Size(input._a.shape)!r})")
    if input._a.dtype.kind in "fV" and target._a.dtype.kind in "biu":
        # PyTorch's (1 - target).mul_(input): an integer target cannot hold the product
        if target._a.dtype.kind == "b":
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                               "`logical_xor()` operator instead.")
        raise RuntimeError(f"result type {legacy_scalar(input.dtype)} can't be cast to the desired output type "
                           f"{legacy_scalar(target.dtype)}")
    if _bce_logits_f32(input._a, target._a, None if weight is None else weight._a,
                       None if pos_weight is None else pos_weight._a):
        # as PyTorch composes it, each op in the dtype: log_sigmoid(x) (* ((pw - 1) * t + 1));
        # (1 - t) * x - that; * weight; apply_loss_reduction
        f32 = input._a.dtype.type
        x, y = input._a, target._a
        log_sig = kernels.log_sigmoid(np.ascontiguousarray(x))[0]
        pw = None if pos_weight is None else pos_weight._a
        if pw is not None:
            log_sig = log_sig * ((pw - f32(1)) * y + f32(1))
        losses = (f32(1) - y) * x - log_sig
        w = None if weight is None else weight._a
        if w is not None:
            losses = losses * w
        return result(reduce_loss(losses, reduction, x), BinaryCrossEntropyWithLogitsBackward0, (input, target),
                      (input, target), (w, pw, reduction))
    x, y = _f64(input._a), _f64(target._a)
    log_sig = np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))
    pw = None if pos_weight is None else _f64(pos_weight._a)
    if pw is not None:
        log_sig = log_sig * ((pw - 1) * y + 1)
    losses = (1 - y) * x - log_sig
    w = None if weight is None else _f64(weight._a)
    if w is not None:
        losses = losses * w
    like = target._a if target._a.dtype.kind == "f" else input._a   # the loss is computed into (1 - target)
    return result(reduce_loss(losses, reduction, like), BinaryCrossEntropyWithLogitsBackward0, (input, target),
                  (input, target), (w, pw, reduction))


declare("binary_cross_entropy_with_logits", binary_cross_entropy_with_logits, method=False, function=False,
        functional=True, rules=[BinaryCrossEntropyWithLogitsBackward0])


# ------------------------------------------------------------------ convolution
def _tuple(v, n, name="kernel_size"):
    if isinstance(v, (tuple, list)):
        if len(v) == 1:
            return tuple(v) * n
        if len(v) != n:
            raise RuntimeError(f"expected {name} to be a single integer value or a list of {n} values to match the "
                               f"convolution dimensions, but got {name}={list(v)}")
        return tuple(int(i) for i in v)
    return (int(v),) * n


def _windows(xp_, kernel, stride, dilation):
    """Strided views: for each kernel offset, the input positions it meets (N, C, *out)."""
    n = len(kernel)
    out = tuple((xp_.shape[2 + i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1 for i in range(n))
    views = []
    for offset in np.ndindex(*kernel):
        idx = (slice(None), slice(None)) + tuple(
            slice(offset[i] * dilation[i], offset[i] * dilation[i] + (out[i] - 1) * stride[i] + 1, stride[i])
            for i in range(n))
        views.append((offset, idx))
    return out, views


@rule("ConvolutionBackward0", ("input", "weight", "bias"),
      ("conv_transpose(grad, weight)", "conv(input, grad)", "grad.sum(batch and spatial dims)"),
      saved=("input", "weight"), ctx=("stride", "padding", "dilation", "groups", "has_bias"))
def ConvolutionBackward0(grad, xp, node, input, weight, stride, padding, dilation, groups, has_bias):
    e = node.edges
    mask = (e[0] is not None, e[1] is not None, has_bias and e[2] is not None)
    if xp.tensors:
        return convolution_backward(grad, input, weight, (stride, padding, dilation, groups), mask)
    return _conv_bw(grad, input, weight, stride, padding, dilation, groups, mask)


def _conv_bw(g, x, w, stride, padding, dilation, groups, mask, exact=True, slow=None):
    """convolution_backward on arrays: (d input, d weight, d bias) for the outputs in mask.
    slow: whether ATen runs its slow path instead of oneDNN (a transposed convolution decides
    by its own input; None: by x)."""
    if exact and g.dtype == x.dtype and onednn.applies(x, w, stride, padding, dilation, groups):
        if onednn._slow(x, w, stride, dilation, groups) if slow is None else slow:
            return onednn.slow_backward(g, x, w, stride, padding, mask)
        if groups > 1 and not onednn._depthwise(x, w, groups):
            return onednn.group_backward(g, x, w, stride, padding, groups, mask)
        gx = gw = gb = None
        if groups > 1:      # depthwise
            if mask[1] or mask[2]:
                gw, gb = onednn.dw_backward_weights(g, x, w.shape, stride, padding, mask[2])
                if mask[1] and not onednn.weight_measured(w, groups):
                    gw = _conv_bw(g, x, w, stride, padding, dilation, groups, (False, True, False), exact=False)[1]
            if mask[0]:
                gx = onednn.dw_backward_data(g, w, x.shape, stride, padding)
            return (gx, gw if mask[1] else None, gb)
        if mask[1] or mask[2]:
            gw, gb = onednn.backward_weights(g, x, w.shape, stride, padding, mask[2])
            if mask[1] and not onednn.weight_measured(w):
                gw = _conv_bw(g, x, w, stride, padding, dilation, groups, (False, True, False), exact=False)[1]
        if mask[0] and onednn.data_measured(x, w, stride):
            gx = onednn.backward_data(g, w, x.shape, stride, padding)
        elif mask[0]:
            gx = _conv_bw(g, x, w, stride, padding, dilation, groups, (True, False, False), exact=False)[0]
        return (gx, gw if mask[1] else None, gb)
    n = w.ndim - 2
    pad = [(0, 0), (0, 0)] + [(p, p) for p in padding]
    xpad = np.pad(x, pad)
    _, views = _windows(xpad, w.shape[2:], stride, dilation)
    cin_g, cout_g = w.shape[1], w.shape[0] // groups
    gx = np.zeros(xpad.shape, np.float64) if mask[0] else None
    gw = np.zeros(w.shape, np.float64) if mask[1] else None
    g64 = _f64(g)
    for gi in range(groups):
        gsl = g64[:, gi * cout_g:(gi + 1) * cout_g]
        for offset, idx in views:
            channels = (slice(None), slice(gi * cin_g, (gi + 1) * cin_g)) + idx[2:]
            patch = _f64(xpad[channels])
            wk = _f64(w[(slice(gi * cout_g, (gi + 1) * cout_g), slice(None)) + tuple(offset)])
            if gw is not None:
                summed = [0, *range(2, gsl.ndim)]
                gw[(slice(gi * cout_g, (gi + 1) * cout_g), slice(None)) + tuple(offset)] += np.tensordot(
                    gsl, patch, axes=(summed, summed))
            if gx is not None:
                gx[channels] += np.einsum("no...,oc->nc...", gsl, wk)
    if gx is not None:
        crop = (slice(None), slice(None)) + tuple(slice(p, p + s) for p, s in zip(padding, x.shape[2:]))
        gx = _out(gx[crop], x)
    gb = _out(g64.sum(axis=(0, *range(2, 2 + n))), g) if mask[2] else None
    return (gx, None if gw is None else _out(gw, w), gb)


@rule("ConvolutionBackwardBackward0", ("grad_output", "input", "weight"),
      ("conv(ggI, weight) + conv(input, ggW) + ggb", "convolution_backward(grad_output, input, ggW)[input]",
       "convolution_backward(grad_output, ggI, weight)[weight]"),
      saved=("grad_output", "input", "weight"), ctx=("geometry", "mask"), multi=True)
def ConvolutionBackwardBackward0(grads, xp, node, grad_output, input, weight, geometry, mask):
    """The gradient of convolution_backward's outputs (d input, d weight, d bias): it is
    linear in grad_output, and bilinear in grad_output and weight (d input) or input (d weight)."""
    gg_in, gg_w, gg_b = (list(grads) + [None] * 3)[:3]
    stride, padding, dilation, groups = geometry
    e = node.edges
    g_out = g_in = g_w = None
    if e[0] is not None:
        parts = []
        if gg_in is not None:
            parts.append(_conv_op(xp, gg_in, weight, geometry))
        if gg_w is not None:
            parts.append(_conv_op(xp, input, gg_w, geometry))
        if gg_b is not None:
            parts.append(xp.reshape(gg_b, (1, -1) + (1,) * (weight.ndim - 2)))
        for part in parts:
            g_out = part if g_out is None else g_out + part
    if e[1] is not None and gg_w is not None:
        g_in = (convolution_backward(grad_output, input, gg_w, geometry, (True, False, False))[0] if xp.tensors
                else _conv_bw(grad_output, input, gg_w, stride, padding, dilation, groups, (True, False, False))[0])
    if e[2] is not None and gg_in is not None:
        g_w = (convolution_backward(grad_output, gg_in, weight, geometry, (False, True, False))[1] if xp.tensors
               else _conv_bw(grad_output, gg_in, weight, stride, padding, dilation, groups, (False, True, False))[1])
    return (g_out, g_in, g_w)


def _conv_op(xp, x, w, geometry, slow=None):
    """conv(x, w) without bias: the op itself under create_graph (ConvolutionBackward0), else arrays.
    slow: as in _conv_bw."""
    stride, padding, dilation, groups = geometry
    if xp.tensors:
        return _conv_forward(x, w, None, stride, padding, dilation, groups)
    if x.dtype == w.dtype and onednn.applies(x, w, stride, padding, dilation, groups):
        if onednn._slow(x, w, stride, dilation, groups) if slow is None else slow:
            return onednn.slow_forward(x, w, None, stride, padding)
        if groups > 1 and not onednn._depthwise(x, w, groups):
            return onednn.group_forward(x, w, None, stride, padding, groups)
        if groups > 1:
            return onednn.dw_forward(x, w, None, stride, padding)
        return onednn.forward(x, w, None, stride, padding)
    return _out(_conv_arrays(x, w, stride, padding, dilation, groups), x)


def convolution_backward(grad_output, input, weight, geometry, mask):
    """aten::convolution_backward under create_graph: its three outputs come from one node
    (ConvolutionBackwardBackward0) with grad_output, input and weight as inputs."""
    stride, padding, dilation, groups = geometry
    arrays = _conv_bw(grad_output._a, input._a, weight._a, stride, padding, dilation, groups, mask)
    outs = tuple(None if a is None else _new(a) for a in arrays)
    if GRAD[0] and any(t._fn is not None or t._rg for t in (grad_output, input, weight)):
        node = Node(ConvolutionBackwardBackward0, tuple(edge_of(t) for t in (grad_output, input, weight)),
                    (grad_output, input, weight), (geometry, mask))
        node.n_out = 3
        for k, o in enumerate(outs):
            if o is not None:
                o._fn, o._onr = node, k
    return outs


declare("convolution_backward", convolution_backward, method=False, function=False,
        rules=[ConvolutionBackwardBackward0])


def _conv(input, weight, bias, stride, padding, dilation, groups, n, name):
    if type(input) is not Tensor:
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({pytype(input)}, ...)")
    x, w = input._a, weight._a
    unbatched = x.ndim == n + 1
    if unbatched:
        x = x[None]
    if x.ndim != n + 2:
        raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got input of "
                           f"size: {list(input._a.shape)}")
    stride, dilation = _tuple(stride, n, "stride"), _tuple(dilation, n, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0,) * n
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise RuntimeError("padding='same' is not supported for strided convolutions")
            total = [dilation[i] * (w.shape[2 + i] - 1) for i in range(n)]
            if any(t % 2 for t in total):
                raise NotImplementedError("padding='same' with an even kernel is not available in gradrepl")
            padding = tuple(t // 2 for t in total)
        else:
            raise RuntimeError(f"Invalid padding string: '{padding}'")
    padding = _tuple(padding, n, "padding")
    if w.shape[1] * groups != x.shape[1]:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(w.shape)}, expected input{list(x.shape)} to "
                           f"have {w.shape[1] * groups} channels, but got {x.shape[1]} channels instead")
    if metadevice.any_dataless(input, weight, bias):   # a meta tensor without data: the shape only
        out_sp = [(x.shape[2 + i] + 2 * padding[i] - dilation[i] * (w.shape[2 + i] - 1) - 1) // stride[i] + 1
                  for i in range(n)]
        xpad = None
    else:
        xpad = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
        out_sp, _ = _windows(xpad, w.shape[2:], stride, dilation)
    if any(o <= 0 for o in out_sp):
        if xpad is None:
            xpad = np.empty((0, 0) + tuple(s + 2 * p for s, p in zip(x.shape[2:], padding)))
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(str(s) for s in xpad.shape[2:])}). "
                           f"Kernel size: ({' x '.join(str(s) for s in w.shape[2:])}). Kernel size can't be greater "
                           "than actual input size")
    inputs = (input if not unbatched else input.unsqueeze(0), weight, bias)
    if xpad is None:
        t = metadevice.shaped((x.shape[0], w.shape[0], *out_sp), np.result_type(x.dtype, w.dtype),
                              "ConvolutionBackward0", inputs)
        return t.squeeze(0) if unbatched else t
    t = _conv_forward(inputs[0], weight, bias, stride, padding, dilation, groups)
    return t.squeeze(0) if unbatched else t


def _conv_arrays(x, w, stride, padding, dilation, groups):
    """The convolution in float64, without bias."""
    xpad = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out_sp, views = _windows(xpad, w.shape[2:], stride, dilation)
    cin_g, cout_g = w.shape[1], w.shape[0] // groups
    out = np.zeros((x.shape[0], w.shape[0], *out_sp), np.float64)
    for gi in range(groups):
        for offset, idx in views:
            patch = _f64(xpad[(slice(None), slice(gi * cin_g, (gi + 1) * cin_g)) + idx[2:]])
            wk = _f64(w[(slice(gi * cout_g, (gi + 1) * cout_g), slice(None)) + tuple(offset)])
            out[:, gi * cout_g:(gi + 1) * cout_g] += np.einsum("nc...,oc->no...", patch, wk)
    return out


def _conv_forward(input, weight, bias, stride, padding, dilation, groups):
    """A batched convolution's Tensor (its arguments checked by the caller)."""
    x, w = input._a, weight._a
    if onednn.applies(x, w, stride, padding, dilation, groups) and (bias is None or bias._a.dtype == x.dtype):
        if groups > 1 and not onednn._depthwise(x, w, groups):
            out = onednn.group_forward(x, w, None if bias is None else bias._a, stride, padding, groups)
        else:
            run = (onednn.slow_forward if onednn._slow(x, w, stride, dilation, groups)
                   else onednn.dw_forward if groups > 1 else onednn.forward)
            out = run(x, w, None if bias is None else bias._a, stride, padding)
    else:
        out = _conv_arrays(x, w, stride, padding, dilation, groups)
        if bias is not None:
            out += _f64(bias._a).reshape((1, -1) + (1,) * (w.ndim - 2))
    return result(_out(out, x), ConvolutionBackward0, (input, weight, bias), (input, weight),
                  (stride, padding, dilation, groups, bias is not None))


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1, "conv1d")


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2, "conv2d")


declare("conv1d", conv1d, method=False, functional=True, rules=[ConvolutionBackward0])
declare("conv2d", conv2d, method=False, functional=True, rules=[])


# ------------------------------------------------------------------ pooling
def _pool_geometry(shape, kernel, stride, padding, dilation, ceil_mode):
    out = []
    for size, k, s, p, d in zip(shape, kernel, stride, padding, dilation):
        span = size + 2 * p - d * (k - 1) - 1
        o = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (o - 1) * s >= size + p:
            o -= 1
        out.append(o)
    return tuple(out)


def _pool_args(kernel_size, stride, padding, dilation=1):
    kernel = _tuple(kernel_size, 2)
    stride = kernel if stride is None or stride == [] or stride == () else _tuple(stride, 2)
    padding, dilation = _tuple(padding, 2), _tuple(dilation, 2)
    for k, p in zip(kernel, padding):
        if p > k // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation=1")
    return kernel, stride, padding, dilation


def _pool_windows(x, kernel, stride, padding, dilation, out, fill):
    """(N, C, oh, ow, kh*kw) values of each window (fill outside the input) and the flat
    input index of each window element (-1 outside)."""
    H, W = x.shape[-2:]
    oh, ow = out
    rows = (np.arange(oh)[:, None] * stride[0] - padding[0] + np.arange(kernel[0])[None] * dilation[0])
    cols = (np.arange(ow)[:, None] * stride[1] - padding[1] + np.arange(kernel[1])[None] * dilation[1])
    r = rows[:, None, :, None]
    c = cols[None, :, None, :]
    inside = (r >= 0) & (r < H) & (c >= 0) & (c < W)
    flat = np.where(inside, np.clip(r, 0, H - 1) * W + np.clip(c, 0, W - 1), -1).reshape(oh, ow, -1)
    xf = x.reshape(x.shape[:-2] + (H * W,))
    vals = np.where(flat >= 0, xf[..., np.clip(flat, 0, None)], fill)
    return vals, flat


@rule("MaxPool2DWithIndicesBackward0", ("self",), ("grad scattered to the max of each window",),
      saved=("self", "indices"), ctx=())
def MaxPool2DWithIndicesBackward0(grad, xp, self, indices):
    if xp.tensors:
        return (max_pool2d_with_indices_backward(grad, self, indices),)
    return (_max_pool_bw(grad, self, indices),)


def _max_pool_bw(g, x, idx):
    H, W = x.shape[-2:]
    lead = int(np.prod(x.shape[:-2]))
    gx = np.zeros((lead, H * W), g.dtype)
    np.add.at(gx, (np.arange(lead)[:, None], idx.reshape(lead, -1)), g.reshape(lead, -1))
    return gx.reshape(x.shape)


def _max_pool_gather(g, idx):
    """max_pool_double_backward: each window's maximum position read from g (input-shaped)."""
    lead = int(np.prod(g.shape[:-2]))
    flat = g.reshape(lead, -1)
    return np.take_along_axis(flat, idx.reshape(lead, -1), 1).reshape(idx.shape)


@rule("MaxPool2DWithIndicesBackwardBackward0", ("grad_output", "self"),
      ("grad read at the max of each window (max_pool_double_backward)", "zeros_like(self)"),
      saved=("self", "indices"))
def MaxPool2DWithIndicesBackwardBackward0(grad, xp, node, self, indices):
    e = node.edges
    g_out = None
    if e[0] is not None:
        if xp.tensors:
            idx = xp.raw(indices)
            lead = int(np.prod(idx.shape[:-2]))
            g_out = grad.reshape(lead, -1).gather(1, _new(idx.reshape(lead, -1))).reshape(idx.shape)
        else:
            g_out = _max_pool_gather(grad, indices)
    return (g_out, None if e[1] is None else xp.zeros_like(self))


def max_pool2d_with_indices_backward(grad_output, self, indices):
    return result(_max_pool_bw(grad_output._a, self._a, indices._a), MaxPool2DWithIndicesBackwardBackward0,
                  (grad_output, self), (self, indices))


declare("max_pool2d_with_indices_backward", max_pool2d_with_indices_backward, method=False, function=False,
        rules=[MaxPool2DWithIndicesBackwardBackward0])


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    x = input._a
    if x.ndim not in (3, 4):
        raise RuntimeError(f"non-empty 3D or 4D (batch mode) tensor expected for input")
    kernel, stride, padding, dilation = _pool_args(kernel_size, stride, padding, dilation)
    out = _pool_geometry(x.shape[-2:], kernel, stride, padding, dilation, ceil_mode)
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input size: ({'x'.join(str(s) for s in x.shape[-3:])}). Calculated output size: "
                           f"({x.shape[-3]}x{out[0]}x{out[1]}). Output size is too small")
    vals, flat = _pool_windows(x, kernel, stride, padding, dilation, out, -np.inf)
    # PyTorch keeps the first maximum in scan order; a NaN wins
    nan = np.isnan(vals)
    pick = np.where(nan.any(-1), nan.argmax(-1), vals.argmax(-1))
    idx = np.take_along_axis(np.broadcast_to(flat, vals.shape), pick[..., None], -1)[..., 0]
    res = np.take_along_axis(vals, pick[..., None], -1)[..., 0].astype(x.dtype)
    indices = _new(idx.astype(np.int64))
    t = result(res, MaxPool2DWithIndicesBackward0, (input,), (input, indices), None)
    return (t, indices) if return_indices else t


declare("max_pool2d", max_pool2d, method=False, functional=True, rules=[MaxPool2DWithIndicesBackward0])


@rule("AvgPool2DBackward0", ("self",), ("grad / divisor spread over each window",), saved=("self",),
      ctx=("kernel", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"))
def AvgPool2DBackward0(grad, xp, self, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    args = (kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
    if xp.tensors:
        return (avg_pool2d_backward(grad, self, args),)
    return (_avg_pool_bw(grad, self, *args),)


@rule("AvgPool2DBackwardBackward0", ("grad_output", "self"), ("avg_pool2d(grad)", "zeros_like(self)"),
      saved=("self",), ctx=("args",))
def AvgPool2DBackwardBackward0(grad, xp, node, self, args):
    e = node.edges
    g_out = None
    if e[0] is not None:
        kernel, stride, padding, ceil_mode, count_include_pad, divisor_override = args
        pooled = avg_pool2d(grad if xp.tensors else _new(grad), kernel, stride, padding, ceil_mode, count_include_pad,
                            divisor_override)
        g_out = pooled if xp.tensors else pooled._a
    return (g_out, None if e[1] is None else xp.zeros_like(self))


def avg_pool2d_backward(grad_output, self, args):
    return result(_avg_pool_bw(grad_output._a, self._a, *args), AvgPool2DBackwardBackward0, (grad_output, self),
                  (self,), args)


declare("avg_pool2d_backward", avg_pool2d_backward, method=False, function=False, rules=[AvgPool2DBackwardBackward0])


def _avg_pool_bw(g, x, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    H, W = x.shape[-2:]
    out = g.shape[-2:]
    _, flat = _pool_windows(x, kernel, stride, padding, (1, 1), out, 0)
    div = _avg_divisor(x.shape[-2:], kernel, stride, padding, out, count_include_pad, divisor_override)
    lead = int(np.prod(x.shape[:-2]))
    if x.dtype in (np.float32, np.float64) and g.dtype == x.dtype:
        # cpu_avg_pool_backward: grad / divisor in the dtype, added to the window's inputs
        # window after window (oh, then ow), each input's sum starting from 0
        delta = (g.reshape(lead, out[0] * out[1]) / div.astype(x.dtype).reshape(-1)).astype(x.dtype)
        gx = np.zeros((lead, H * W + 1), x.dtype)
        cells = flat.reshape(out[0] * out[1], -1)
        for k in range(cells.shape[0]):
            at = np.where(cells[k] >= 0, cells[k], H * W)
            gx[:, at] += delta[:, k, None]
        return gx[:, :H * W].reshape(x.shape)
    share = (_f64(g) / div).reshape(lead, out[0], out[1], 1)
    share = np.broadcast_to(share, (lead, out[0], out[1], flat.shape[-1]))
    gx = np.zeros((lead, H * W + 1), np.float64)
    target = np.where(flat >= 0, flat, H * W)
    np.add.at(gx, (np.arange(lead)[:, None, None, None], np.broadcast_to(target, share.shape)), share)
    return _out(gx[:, :H * W].reshape(x.shape), x)


def _avg_divisor(shape, kernel, stride, padding, out, count_include_pad, divisor_override):
    if divisor_override:
        return float(divisor_override)
    H, W = shape
    hs = np.arange(out[0]) * stride[0] - padding[0]
    ws = np.arange(out[1]) * stride[1] - padding[1]
    he = np.minimum(hs + kernel[0], H + padding[0])
    we = np.minimum(ws + kernel[1], W + padding[1])
    pool = (he - hs)[:, None] * (we - ws)[None, :]
    if count_include_pad:
        return pool.astype(np.float64)
    hs2, ws2 = np.maximum(hs, 0), np.maximum(ws, 0)
    he2, we2 = np.minimum(he, H), np.minimum(we, W)
    return ((he2 - hs2)[:, None] * (we2 - ws2)[None, :]).astype(np.float64)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    x = input._a
    if x.ndim not in (3, 4):
        raise RuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    kernel, stride, padding, _ = _pool_args(kernel_size, stride, padding)
    out = _pool_geometry(x.shape[-2:], kernel, stride, padding, (1, 1), ceil_mode)
    vals, _ = _pool_windows(x, kernel, stride, padding, (1, 1), out, 0)
    div = _avg_divisor(x.shape[-2:], kernel, stride, padding, out, count_include_pad, divisor_override)
    if x.dtype in (np.float32, np.float64):
        # cpu_avg_pool: the window's values added one by one in the dtype (row by row), then
        # divided by the divisor
        acc = np.zeros(vals.shape[:-1], x.dtype)
        for k in range(vals.shape[-1]):
            acc += vals[..., k]
        res = (acc / div.astype(x.dtype)).astype(x.dtype)
    else:
        res = _out(_f64(vals).sum(-1) / div, x)
    return result(res, AvgPool2DBackward0, (input,), (input,),
                  (kernel, stride, padding, ceil_mode, count_include_pad, divisor_override))


declare("avg_pool2d", avg_pool2d, method=False, function=False, functional=True, rules=[AvgPool2DBackward0])


def _adaptive_windows(size, out):
    """PyTorch's adaptive pooling windows along one dim: [floor(i*size/out), ceil((i+1)*size/out))."""
    return [((i * size) // out, -(-((i + 1) * size) // out)) for i in range(out)]


@rule("AdaptiveAvgPool2DBackward0", ("self",), ("grad / window size spread over each window",), saved=("self",),
      ctx=("shape",))
def AdaptiveAvgPool2DBackward0(grad, xp, self, shape):
    if xp.tensors:
        return (adaptive_avg_pool2d_backward(grad, self),)
    return (_adaptive_avg_pool_bw(grad, shape),)


def _adaptive_avg_pool_bw(g, shape):
    acc = _accumulator(g)
    gx = np.zeros(shape, acc)
    for i, (h0, h1) in enumerate(_adaptive_windows(shape[-2], g.shape[-2])):
        for j, (w0, w1) in enumerate(_adaptive_windows(shape[-1], g.shape[-1])):
            # PyTorch's CPU kernel: each output's gradient divided by the window's height, then width
            gx[..., h0:h1, w0:w1] += (g[..., i, j, None, None].astype(acc) / acc.type(h1 - h0)) / acc.type(w1 - w0)
    return _out(gx, g)


@rule("AdaptiveAvgPool2DBackwardBackward0", ("grad_output", "self"), ("adaptive_avg_pool2d(grad)", "zeros_like(self)"),
      ctx=("out_size",))
def AdaptiveAvgPool2DBackwardBackward0(grad, xp, node, out_size):
    g_out = None
    if node.edges[0] is not None:
        pooled = adaptive_avg_pool2d(grad if xp.tensors else _new(grad), out_size)
        g_out = pooled if xp.tensors else pooled._a
    return (g_out, None)


def adaptive_avg_pool2d_backward(grad_output, self):
    """Under create_graph: the gradient's node has PyTorch's edges (grad_output, self); linear in
    grad_output, its own derivative is the pooling of grad."""
    return result(_adaptive_avg_pool_bw(grad_output._a, self._a.shape), AdaptiveAvgPool2DBackwardBackward0,
                  (grad_output, self), (), tuple(grad_output._a.shape[-2:]))


declare("adaptive_avg_pool2d_backward", adaptive_avg_pool2d_backward, method=False, function=False,
        rules=[AdaptiveAvgPool2DBackwardBackward0])


def _accumulator(a):
    """The dtype PyTorch's CPU pooling kernels add in: float32 for float16/bfloat16."""
    return np.dtype(np.float32) if a.dtype.itemsize == 2 else a.dtype


def adaptive_avg_pool2d(input, output_size):
    x = input._a
    if x.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got {shape_list(x.shape)}")
    sizes = (output_size, output_size) if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if len(sizes) != 2:
        raise RuntimeError("adaptive_avg_pool2d: output_size must be 2")
    out = tuple(x.shape[-2 + k] if s is None else s for k, s in enumerate(sizes))
    if any(s < 0 for s in out):
        raise RuntimeError("adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{out[0]}, {out[1]}}}")
    if out == (1, 1):   # PyTorch: a mean over the last two dims
        return input.mean((-2, -1), keepdim=True)
    acc = _accumulator(x)
    res = np.zeros(x.shape[:-2] + out, acc)
    for i, (h0, h1) in enumerate(_adaptive_windows(x.shape[-2], out[0])):
        for j, (w0, w1) in enumerate(_adaptive_windows(x.shape[-1], out[1])):
            total = np.zeros(x.shape[:-2], acc)
            for ih in range(h0, h1):            # PyTorch's CPU kernel: row by row, left to right,
                for iw in range(w0, w1):        # then divided by the window's height and width
                    total += x[..., ih, iw]
            res[..., i, j] = total / acc.type(h1 - h0) / acc.type(w1 - w0)
    return result(_out(res, x), AdaptiveAvgPool2DBackward0, (input,), (input,), x.shape)


def adaptive_avg_pool1d(input, output_size):
    if input._a.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input._a.ndim}-dimensional tensor for argument #1 "
                           "'self' (while checking arguments for adaptive_avg_pool1d)")
    size = output_size[0] if isinstance(output_size, (tuple, list)) else output_size
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, size)).squeeze(-2)


declare("adaptive_avg_pool2d", adaptive_avg_pool2d, method=False, function=False, functional=True,
        rules=[AdaptiveAvgPool2DBackward0])
declare("adaptive_avg_pool1d", adaptive_avg_pool1d, method=False, functional=True, rules=[])


# ------------------------------------------------------------------ embedding
@rule("EmbeddingBackward0", ("weight",), ("grad rows added at the indices",), saved=("indices",),
      ctx=("num_weights", "padding_idx"))
def EmbeddingBackward0(grad, xp, indices, num_weights, padding_idx):
    if xp.tensors:
        return (embedding_dense_backward(grad, indices, num_weights, padding_idx),)
    return (_embedding_bw(grad, indices, num_weights, padding_idx),)


def _embedding_bw(g, idx, num_weights, padding_idx):
    gw = np.zeros((num_weights, g.shape[-1]), g.dtype)
    np.add.at(gw, idx.reshape(-1), g.reshape(-1, g.shape[-1]))
    if padding_idx is not None and padding_idx >= 0:
        gw[padding_idx] = 0
    return gw


@rule("EmbeddingDenseBackwardBackward0", ("grad_output",), ("grad rows read at the indices",), saved=("indices",),
      ctx=("padding_idx",))
def EmbeddingDenseBackwardBackward0(grad, xp, indices, padding_idx):
    idx = xp.raw(indices)
    keep = xp.constant(_out((idx != padding_idx)[..., None], xp.raw(grad)))
    if xp.tensors:
        return (grad[_new(idx)] * keep,)
    return (grad[idx] * keep,)


def embedding_dense_backward(grad_output, indices, num_weights, padding_idx):
    return result(_embedding_bw(grad_output._a, indices._a, num_weights, padding_idx), EmbeddingDenseBackwardBackward0,
                  (grad_output,), (indices,), padding_idx)


declare("embedding_dense_backward", embedding_dense_backward, method=False, function=False,
        rules=[EmbeddingDenseBackwardBackward0])


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    idx = input._a
    if idx.dtype.kind not in "iu":
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{D.from_np(idx.dtype).legacy} instead (while checking "
                           "arguments for embedding)")
    n = weight._a.shape[0]
    if idx.size and (idx.max() >= n or idx.min() < 0):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += n
    out = weight._a[idx]
    return result(out, EmbeddingBackward0, (weight,), (input,), (n, padding_idx))


declare("embedding", embedding, method=False, function=False, functional=True, rules=[EmbeddingBackward0])


def one_hot(tensor, num_classes=-1):
    a = tensor._a
    if a.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if a.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(a.max()) + 1
    if a.size and a.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if a.size and a.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return _new((a[..., None] == np.arange(num_classes)).astype(np.int64))


declare("one_hot", one_hot, method=False, function=False, functional=True, rules=[])


# ------------------------------------------------------------------ normalisation
@rule("NativeLayerNormBackward0", ("input", "weight", "bias"),
      ("(weight * grad - mean(weight * grad) - xhat * mean(weight * grad * xhat)) * rstd",
       "sum(grad * xhat)", "sum(grad)"),
      saved=("input", "weight"), ctx=("axes", "mean", "rstd", "eps"), optional=("weight",))
def NativeLayerNormBackward0(grad, xp, node, input, weight, axes, mean, rstd, eps):
    mask = tuple(e is not None for e in node.edges)
    if xp.tensors:
        return _norm_backward_op(NativeLayerNormBackwardBackward0, _layer_norm_bw, grad, input, weight, node.edges,
                                 (axes, mean, rstd, eps), mask)
    return _layer_norm_bw(grad, input, weight, axes, mean, rstd, eps, mask)


def _layer_norm_bw32(grad, input, weight, axes, mean, rstd, mask):
    """PyTorch's float32 LayerNormBackwardKernel (layer_norm_kernel.cpp) row by row: ds and db
    reduced as vec::map*_reduce_all (8 lanes), b = (db * mean - ds) * a^3 / N and
    c = -b * mean - db * a / N with their multiply-adds fused, dX = a * dy * gamma + b * x + c;
    dgamma and dbeta accumulated per thread's block of rows (fused), the blocks then added."""
    f32 = np.float32
    cols = math.prod(input.shape[input.ndim - len(axes):])
    x = np.ascontiguousarray(input).reshape(-1, cols)
    dy = np.ascontiguousarray(grad).reshape(-1, cols)
    rows = x.shape[0]
    a = rstd.astype(f32).reshape(rows, 1)
    m = mean.astype(f32).reshape(rows, 1)
    gam = np.ones(cols, f32) if weight is None else weight.reshape(cols)
    gx = gw = gb = None
    if mask[0]:
        scale = f32(1) / f32(cols)
        if weight is None:
            ds, db = _lane_sums(dy, x), _lane_sums(dy)
        else:
            ds, db = _lane_sums(dy * x, gam), _lane_sums(dy, gam)
        b = fma32(db, m, -ds) * a * a * a * scale
        c = fma32(-b, m, -(db * a * scale))
        first = a * dy if weight is None else a * dy * gam
        gx = (fma32(np.broadcast_to(b, x.shape), x, first) + c).reshape(input.shape)
    if mask[1] or mask[2]:
        threads = max(1, min(THREADS["n"], rows))
        chunk = -(-rows // threads)
        gw_acc, gb_acc = np.zeros(cols, f32), np.zeros(cols, f32)
        for start in range(0, rows, chunk):
            bw, bb = np.zeros(cols, f32), np.zeros(cols, f32)
            for r in range(start, min(rows, start + chunk)):
                if mask[1]:
                    ar = np.full(cols, a[r, 0], f32)
                    bw = fma32(dy[r], fma32(ar, x[r], np.full(cols, -a[r, 0] * m[r, 0], f32)), bw)
                if mask[2]:
                    bb = bb + dy[r]
            gw_acc, gb_acc = gw_acc + bw, gb_acc + bb
        shape = input.shape[input.ndim - len(axes):]
        gw = gw_acc.reshape(shape) if mask[1] else None
        gb = gb_acc.reshape(shape) if mask[2] else None
    return (gx, gw, gb)


def _lane_sums(v, w=None):
    """Each row of v (times w, a row or an array like v) summed as vec::reduce_all(+) /
    map*_reduce_all(*, +) do with 8-lane vectors: narrower rows left to right; wider ones in
    8 lane sums, the lanes then folded in halves. A partial last vector adds into its first
    lanes, its product fused into that sum (as GCC compiles the tail; the full vectors'
    products are rounded first)."""
    rows, cols = v.shape
    w = None if w is None else np.broadcast_to(w, v.shape)
    prod = v if w is None else v * w
    if cols < 8:
        acc = prod[:, 0].copy()
        for i in range(1, cols):
            acc = acc + prod[:, i]
        return acc.reshape(rows, 1)
    acc = prod[:, :8].copy()
    k = 8
    while k + 8 <= cols:
        acc = acc + prod[:, k:k + 8]
        k += 8
    if k < cols:
        r = cols - k
        acc[:, :r] = acc[:, :r] + v[:, k:] if w is None else fma32(v[:, k:], w[:, k:], acc[:, :r])
    while acc.shape[1] > 1:
        half = acc.shape[1] // 2
        acc = acc[:, :half] + acc[:, half:]
    return acc


def _layer_norm_bw(grad, input, weight, axes, mean, rstd, eps, mask):
    """native_layer_norm_backward on arrays: (d input, d weight, d bias) where mask says."""
    if (input.dtype == np.float32 and grad.dtype == np.float32 and input.size
            and (weight is None or weight.dtype == np.float32)):
        return _layer_norm_bw32(grad, input, weight, axes, mean, rstd, mask)
    x, g = _f64(input), _f64(grad)
    xhat = (x - mean) * rstd
    lead = tuple(range(x.ndim - len(axes)))
    gw = gb = gx = None
    if mask[1]:
        gw = _out((g * xhat).sum(axis=lead), grad)
    if mask[2]:
        gb = _out(g.sum(axis=lead), grad)
    if mask[0]:
        wg = g if weight is None else g * _f64(weight)
        m1 = wg.mean(axis=axes, keepdims=True)
        m2 = (wg * xhat).mean(axis=axes, keepdims=True)
        gx = _out((wg - m1 - xhat * m2) * rstd, grad)
    return (gx, gw, gb)


def _layer_norm_graph(g, x, w, axes, eps):
    """The first-order gradients of layer_norm written in ops (differentiable again)."""
    mean = x.mean(axes, keepdim=True)
    xc = x - mean
    rstd = ((xc * xc).mean(axes, keepdim=True) + eps).rsqrt()
    xhat = xc * rstd
    lead = tuple(range(x.ndim - len(axes)))
    wg = g if w is None else g * w
    gx = (wg - wg.mean(axes, keepdim=True) - xhat * (wg * xhat).mean(axes, keepdim=True)) * rstd
    return gx, (g * xhat).sum(lead) if lead else g * xhat, g.sum(lead) if lead else g


def _batch_norm_graph(g, x, w, axes, eps, training, mean, invstd):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if training:
        mean_t = x.mean(axes, keepdim=True)
        xc = x - mean_t
        invstd_t = ((xc * xc).mean(axes, keepdim=True) + eps).rsqrt()
    else:
        xc = x - _new(mean.astype(x._a.dtype))
        invstd_t = _new(invstd.astype(x._a.dtype))
    xhat = xc * invstd_t
    ws = 1.0 if w is None else w.reshape(shape)
    if training:
        gx = (g - g.mean(axes, keepdim=True) - xhat * (g * xhat).mean(axes, keepdim=True)) * invstd_t * ws
    else:
        gx = g * invstd_t * ws
    return gx, (g * xhat).sum(axes), g.sum(axes)


def _norm_backward_op(spec, kernel, grad, input, weight, edges, ctx, mask):
    """native_layer_norm_backward / native_batch_norm_backward under create_graph: the plain
    kernel's values, recorded as one node of three outputs (PyTorch's ...BackwardBackward0)
    whose rule differentiates the formula again."""
    arrays = kernel(grad._a, input._a, None if weight is None else weight._a, *ctx, mask)
    outs = tuple(None if a is None else _new(a) for a in arrays)
    if GRAD[0] and (grad.requires_grad or edges[0] is not None or edges[1] is not None):
        if spec is NativeLayerNormBackwardBackward0:   # grad_out, input, mean, rstd, weight, bias
            node_edges = (edge_of(grad), edges[0], None, None, edges[1], edges[2])
        else:                                          # grad_out, input, weight, running_mean, running_var
            node_edges = (edge_of(grad), edges[0], edges[1], None, None)
        node = Node(spec, node_edges, (grad, input, ABSENT if weight is None else weight), ctx)
        node.n_out = 3
        for k, o in enumerate(outs):
            if o is not None:
                o._fn, o._onr = node, k
    return outs


def _norm_double(grads, xp, grad_output, input, weight, first_order_graph):
    """(d grad_output, d input, d weight) of the first-order gradients contracted with
    `grads`, by the engine's own backward through their formula in ops."""
    prev = GRAD[0]
    GRAD[0] = True
    try:
        leaves = []
        for t in (grad_output, input, weight):
            if t is None:
                leaves.append(None)
            elif xp.tensors and t.requires_grad:
                leaves.append(t)          # stays attached: third derivatives flow through
            else:
                leaf = _new(t._a if type(t) is Tensor else t)
                leaf._rg = True
                leaves.append(leaf)
        outs = first_order_graph(*leaves)
    finally:
        GRAD[0] = prev
    roots, seeds = [], []
    for o, gg in zip(outs, list(grads) + [None] * 3):
        if gg is not None and o is not None and o.requires_grad:
            roots.append(o)
            seeds.append(gg if xp.tensors else _new(np.asarray(gg)))
    wanted = [t for t in leaves if t is not None]
    if not roots:
        return [None] * 3
    got = run_backward(roots, seeds, retain_graph=False, create_graph=xp.tensors, inputs=wanted, accumulate=False,
                       allow_unused=True)
    it = iter(got)
    res = [None if t is None else next(it) for t in leaves]
    return [None if r is None else (r if xp.tensors else r._a) for r in res]


@rule("NativeLayerNormBackwardBackward0", ("grad_out", "input", "mean", "rstd", "weight", "bias"),
      ("d/d grad_out of the first-order formula", "d/d input (through mean and rstd)", "non-differentiable here",
       "non-differentiable here", "d/d weight", "0"),
      saved=("grad_out", "input", "weight"), ctx=("axes", "mean", "rstd", "eps"), optional=("weight",), multi=True)
def NativeLayerNormBackwardBackward0(grads, xp, node, grad_out, input, weight, axes, mean, rstd, eps):
    gg, gi, gw = _norm_double(grads, xp, grad_out, input, weight,
                              lambda g, x, w: _layer_norm_graph(g, x, w, axes, eps))
    e = node.edges
    return (gg if e[0] is not None else None, gi if e[1] is not None else None, None, None,
            gw if e[4] is not None else None, None)


@rule("NativeBatchNormBackwardBackward0", ("grad_out", "input", "weight", "running_mean", "running_var"),
      ("d/d grad_out of the first-order formula", "d/d input (through the batch statistics when training)",
       "d/d weight", "non-differentiable here", "non-differentiable here"),
      saved=("grad_out", "input", "weight"), ctx=("axes", "mean", "invstd", "training", "eps"), optional=("weight",),
      multi=True)
def NativeBatchNormBackwardBackward0(grads, xp, node, grad_out, input, weight, axes, mean, invstd, training, eps):
    gg, gi, gw = _norm_double(grads, xp, grad_out, input, weight,
                              lambda g, x, w: _batch_norm_graph(g, x, w, axes, eps, training, mean, invstd))
    e = node.edges
    return (gg if e[0] is not None else None, gi if e[1] is not None else None,
            gw if e[2] is not None else None, None, None)


def _layer_norm_f32(x, weight, bias):
    """float32 inputs and parameters: PyTorch's kernel bit for bit (kernels.rowwise_moments)."""
    return x.dtype == np.float32 and x.size > 0 and all(t is None or t._a.dtype == np.float32 for t in (weight, bias))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    x = input._a
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(shape)
    if x.shape[x.ndim - k:] != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(str(s) for s in shape)}], but got input of size{list(x.shape)}")
    axes = tuple(range(x.ndim - k, x.ndim))
    if _layer_norm_f32(x, weight, bias):
        # PyTorch's kernel: RowwiseMoments, rstd = 1 / sqrt(var + eps), then
        # fma((x - mean) * rstd, weight, bias), all in float32
        f32 = np.float32
        cols = math.prod(shape)
        rows2d = x.reshape(-1, cols)
        mean32, var32 = kernels.rowwise_moments(rows2d)
        rstd32 = f32(1) / np.sqrt(var32 + f32(eps))
        w = np.ones(cols, f32) if weight is None else weight._a.reshape(cols)
        b = np.zeros(cols, f32) if bias is None else bias._a.reshape(cols)
        y = fma32((rows2d - mean32[:, None]) * rstd32[:, None], w, b).reshape(x.shape)
        keep = x.shape[:x.ndim - k] + (1,) * k
        mean, rstd = _f64(mean32).reshape(keep), _f64(rstd32).reshape(keep)
        return result(y, NativeLayerNormBackward0, (input, weight, bias), (input, weight), (axes, mean, rstd, eps))
    x64 = _f64(x)
    mean = x64.mean(axis=axes, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    y = (x64 - mean) * rstd
    if weight is not None:
        y = y * _f64(weight._a)
    if bias is not None:
        y = y + _f64(bias._a)
    return result(_out(y, x), NativeLayerNormBackward0, (input, weight, bias), (input, weight),
                  (axes, mean, rstd, eps))


declare("layer_norm", layer_norm, method=False, functional=True, rules=[NativeLayerNormBackward0])


@rule("NativeBatchNormBackward0", ("input", "weight", "bias"),
      ("training: (grad - mean(grad) - xhat * mean(grad * xhat)) * weight * invstd; eval: grad * weight * invstd",
       "sum(grad * xhat)", "sum(grad)"),
      saved=("input", "weight"), ctx=("axes", "mean", "invstd", "training", "eps"), optional=("weight",))
def NativeBatchNormBackward0(grad, xp, node, input, weight, axes, mean, invstd, training, eps):
    mask = tuple(e is not None for e in node.edges)
    if xp.tensors:
        return _norm_backward_op(NativeBatchNormBackwardBackward0, _batch_norm_bw, grad, input, weight, node.edges,
                                 (axes, mean, invstd, training, eps), mask)
    return _batch_norm_bw(grad, input, weight, axes, mean, invstd, training, eps, mask)


def _batch_norm_bw_rows(grad, input, weight, mean, invstd, training, mask):
    """PyTorch's batch_norm_cpu_backward_channels_last_impl, which N x C inputs take, in
    the dtype: per thread block of rows the sums of dy and the fused dot products of
    (x - mean) and dy, the blocks added in double; dX in vectors (8 float32 or 4 float64
    lanes) ((dy - sum/N) less (x - mean) * k, fused) * invstd * weight, the leftover channels
    unfused as its scalar loop."""
    f32 = input.dtype.type
    fma = fma32 if input.dtype == np.float32 else fma64
    lanes = 8 if input.dtype == np.float32 else 4
    rows, c = input.shape[0], input.shape[1]
    x = np.ascontiguousarray(input).reshape(rows, c)
    dy = np.ascontiguousarray(grad).reshape(rows, c)
    m = mean.astype(f32).reshape(c)
    inv = invstd.astype(f32).reshape(c)
    w = np.ones(c, f32) if weight is None else weight.reshape(c)
    threads = max(1, min(THREADS["n"], rows))
    chunk = -(-rows // threads)
    total, dot = np.zeros(c), np.zeros(c)
    for start in range(0, rows, chunk):
        s, d = np.zeros(c, f32), np.zeros(c, f32)
        for r in range(start, min(rows, start + chunk)):
            s = s + dy[r]
            d = fma(x[r] - m, dy[r], d)
        total, dot = total + s, dot + d
    total, dot = total.astype(f32), dot.astype(f32)
    gx = gw = gb = None
    if mask[0]:
        if training:
            n = f32(rows)
            k = dot * inv * inv / n
            centred = x - m
            base = dy - total / n
            gx = fma(-centred, np.broadcast_to(k, x.shape), base) * inv * w
            loop = c - c % lanes
            if loop < c:
                gx[:, loop:] = (base[:, loop:] - centred[:, loop:] * k[loop:]) * inv[loop:] * w[loop:]
        else:
            gx = dy * inv * w
        gx = gx.reshape(input.shape)
    if mask[1]:
        gw = dot * inv
    if mask[2]:
        gb = total
    return (gx, gw, gb)


def _batch_norm_bw_planes(grad, input, weight, mean, invstd, training, mask):
    """PyTorch's batch_norm_cpu_backward_contiguous_impl (contiguous inputs with an image size
    above 1), per channel: over each image plane of the batch in order, the sum of dy
    (vec::reduce_all) and of (x - mean) * dy (map2_reduce_all, fused) added in double; dX as
    ((dy - sum/N) - (x - mean) * k) * invstd * w with k = dotp * invstd^2 / N in the dtype
    ((x - mean) * k fused into the difference), or dy * invstd * w in evaluation."""
    dt = input.dtype.type
    lanes = 8 if input.dtype == np.float32 else 4
    nb, c = input.shape[0], input.shape[1]
    plane = input.size // (nb * c)
    n = nb * plane
    x = input.reshape(nb, c, plane)
    dy = grad.reshape(nb, c, plane)
    m = mean.astype(dt).reshape(c)
    inv = invstd.astype(dt).reshape(c)
    w = np.ones(c, dt) if weight is None else weight.reshape(c)
    total, dot = np.zeros(c), np.zeros(c)
    for b in range(nb):
        total = total + kernels.vec_sum_rows(dy[b], lanes)
        dot = dot + kernels.vec_dot_rows(x[b] - m[:, None], dy[b], lanes)
    gx = gw = gb = None
    if mask[0]:
        if training:
            k = ((dot.astype(dt) * inv) * inv / dt(n))[:, None]
            grad_mean = (total / n).astype(dt)[:, None]
            gx = _fma32(-(x - m[:, None]), np.broadcast_to(k, x.shape), dy - grad_mean) * inv[:, None] * w[:, None]
        else:
            gx = dy * inv[:, None] * w[:, None]
        gx = gx.reshape(input.shape)
    if mask[1]:
        gw = (dot * inv).astype(dt)
    if mask[2]:
        gb = total.astype(dt)
    return (gx, gw, gb)


def _batch_norm_bw(grad, input, weight, axes, mean, invstd, training, eps, mask):
    """native_batch_norm_backward on arrays: (d input, d weight, d bias) where mask says."""
    if (input.dtype in (np.float32, np.float64) and grad.dtype == input.dtype and input.ndim >= 2 and input.size
            and input.size == input.shape[0] * input.shape[1] and (weight is None or weight.dtype == input.dtype)):
        return _batch_norm_bw_rows(grad, input, weight, mean, invstd, training, mask)
    if (input.dtype in (np.float32, np.float64) and grad.dtype == input.dtype and input.ndim >= 3 and input.size
            and input.flags.c_contiguous and grad.flags.c_contiguous and (weight is None or weight.dtype == input.dtype)):
        return _batch_norm_bw_planes(grad, input, weight, mean, invstd, training, mask)
    x, g = _f64(input), _f64(grad)
    xhat = (x - mean) * invstd
    gw = gb = gx = None
    if mask[1]:
        gw = _out((g * xhat).sum(axis=axes), grad)
    if mask[2]:
        gb = _out(g.sum(axis=axes), grad)
    if mask[0]:
        w = 1.0 if weight is None else _f64(weight).reshape(mean.shape)
        if training:
            d = (g - g.mean(axis=axes, keepdims=True) - xhat * (g * xhat).mean(axis=axes, keepdims=True)) * invstd * w
        else:
            d = g * invstd * w
        gx = _out(d, grad)
    return (gx, gw, gb)


def _fma32(a, b, c):
    """a * b + c rounded once, as PyTorch's CPU kernels (built with FMA contraction) give it
    (float64: rounding.fma64)."""
    if a.dtype == np.float64:
        return fma64(a, b, c)
    if a.dtype != np.float32:
        return a * b + c
    return (a.astype(np.float64) * b + c).astype(np.float32)


def _bn_batch_stats(x, n):
    """PyTorch's batch_norm_cpu_collect_stats kernels: per-channel mean and sum of squared
    deviations, in the input's dtype, summed in PyTorch's order."""
    dt, c = x.dtype, x.shape[1]
    if x.size == x.shape[0] * c:
        # N x C (image size 1) takes the channels-last kernel: with more rows than threads each
        # thread sums its block of rows in the input's dtype, the blocks are then added in
        # double; with no more rows than threads, 16 < C <= 2048 (and more than one thread) goes
        # channel by channel in double (the squares rounded to the dtype), other C tile by tile
        # in the dtype: one block, the mean divided in the dtype
        rows = x.reshape(x.shape[0], c)
        if len(rows) <= THREADS["n"] and THREADS["n"] > 1 and 16 < c <= 2048:
            mean = (np.add.accumulate(rows.astype(np.float64), axis=0)[-1] / n).astype(dt)
            d = rows - mean
            return mean, np.add.accumulate((d * d).astype(np.float64), axis=0)[-1].astype(dt)
        if len(rows) <= THREADS["n"]:
            mean = np.add.accumulate(rows, axis=0)[-1] / dt.type(n)
            acc = np.zeros(c, dt)
            for row in rows:
                d = row - mean
                acc = _fma32(d, d, acc)
            return mean, acc
        threads = THREADS["n"]
        chunk = -(-len(rows) // threads)
        blocks = [rows[k:k + chunk] for k in range(0, len(rows), chunk)]
        total = np.zeros(c)
        for block in blocks:
            total = total + np.add.accumulate(block, axis=0)[-1]
        mean = (total / n).astype(dt)
        total = np.zeros(c)
        for block in blocks:
            acc = np.zeros(c, dt)
            for row in block:
                d = row - mean
                acc = _fma32(d, d, acc)
            total = total + acc
        return mean, total.astype(dt)
    per_channel = np.moveaxis(x, 1, 0).reshape(c, -1)
    mean = (np.add.accumulate(per_channel.astype(np.float64), axis=1)[:, -1] / n).astype(dt)
    d = per_channel - mean[:, None]
    return mean, np.add.accumulate((d * d).astype(np.float64), axis=1)[:, -1].astype(dt)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    x = input._a
    if x.ndim < 2:
        raise ValueError(f"expected 2D or 3D input (got {x.ndim}D input)")
    for stat, name in ((running_mean, "running_mean"), (running_var, "running_var"), (weight, "weight"),
                       (bias, "bias")):
        if stat is not None and stat._a.size != x.shape[1]:
            raise RuntimeError(f"{name} should contain {x.shape[1]} elements not {stat._a.size}")
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    n = x.size // x.shape[1]
    if x.dtype not in (np.float32, np.float64):
        return _batch_norm_f64(input, running_mean, running_var, weight, bias, training, momentum, eps)
    dt = x.dtype.type
    if training:
        if n <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size torch.Size({list(x.shape)})")
        mean, var_sum = _bn_batch_stats(x, n)
        invstd = (1 / np.sqrt((var_sum / dt(n)).astype(np.float64) + eps)).astype(dt)
        mom = dt(momentum)                  # PyTorch updates the running stats in their dtype
        if running_mean is not None:
            rm = running_mean._a
            rm[...] = _out(mom * mean + (dt(1) - mom) * rm.astype(dt), rm)
            running_mean._ver[0] += 1
        if running_var is not None:
            rv = running_var._a
            unbiased = var_sum / dt(n - 1)
            if x.dtype == np.float64:   # the double update as written, unfused (measured)
                rv[...] = _out(mom * unbiased + (dt(1) - mom) * rv.astype(dt), rv)
            else:
                rv[...] = _out(_fma32(np.full_like(var_sum, mom), unbiased, (dt(1) - mom) * rv.astype(dt)), rv)
            running_var._ver[0] += 1
    else:
        mean = running_mean._a.astype(x.dtype)
        invstd = dt(1) / np.sqrt(running_var._a.astype(x.dtype) + dt(eps))
        # the backward recomputes it: 1 / sqrt(running_var + eps) with eps a double
        invstd_bw = (1 / np.sqrt(running_var._a.astype(np.float64) + eps)).astype(x.dtype)
    alpha = invstd if weight is None else invstd * weight._a.astype(x.dtype)
    if x.dtype == np.float64:     # bias - mean * alpha fused (float32: in double, rounded once)
        beta = fma64(-mean, alpha, bias._a.astype(np.float64) if bias is not None else np.zeros_like(alpha))
    else:
        beta = (_f64(bias._a) if bias is not None else 0.0) - _f64(mean) * alpha
    y = _fma32(x, alpha.reshape(shape), beta.astype(x.dtype).reshape(shape))
    if not training:
        invstd = invstd_bw
    return result(y, NativeBatchNormBackward0, (input, weight, bias), (input, weight),
                  (axes, _f64(mean).reshape(shape), _f64(invstd).reshape(shape), training, eps))


def _batch_norm_f64(input, running_mean, running_var, weight, bias, training, momentum, eps):
    """Half precision: computed in float64 and rounded once."""
    x = input._a
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    x64 = _f64(x)
    n = x.size // x.shape[1]
    if training:
        if n <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size torch.Size({list(x.shape)})")
        mean = x64.mean(axis=axes, keepdims=True)
        var = ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)
        if running_mean is not None:
            rm = running_mean._a
            rm[...] = _out((1 - momentum) * _f64(rm) + momentum * mean.reshape(-1), rm)
            running_mean._ver[0] += 1
        if running_var is not None:
            rv = running_var._a
            rv[...] = _out((1 - momentum) * _f64(rv) + momentum * var.reshape(-1) * n / (n - 1), rv)
            running_var._ver[0] += 1
    else:
        mean = _f64(running_mean._a).reshape(shape)
        var = _f64(running_var._a).reshape(shape)
    invstd = 1 / np.sqrt(var + eps)
    y = (x64 - mean) * invstd
    if weight is not None:
        y = y * _f64(weight._a).reshape(shape)
    if bias is not None:
        y = y + _f64(bias._a).reshape(shape)
    return result(_out(y, x), NativeBatchNormBackward0, (input, weight, bias), (input, weight),
                  (axes, mean, invstd, training, eps))


declare("batch_norm", batch_norm, method=False, function=False, functional=True, rules=[NativeBatchNormBackward0])


# ------------------------------------------------------------------ pad
def _pad_array(x, widths, value):
    """x padded by (before, after) per dim; negative widths cut elements off."""
    out = np.pad(x, [(max(a, 0), max(b, 0)) for a, b in widths], constant_values=value)
    cut = tuple(slice(-a if a < 0 else 0, out.shape[d] + b if b < 0 else None) for d, (a, b) in enumerate(widths))
    return np.ascontiguousarray(out[cut])


@rule("ConstantPadNdBackward0", ("self",), ("constant_pad_nd(grad, -pad, 0)",), ctx=("widths",))
def ConstantPadNdBackward0(grad, xp, widths):
    if xp.tensors:   # the op itself on grad, with the widths negated (linear: create_graph goes through it)
        return (pad(grad, [-w for a, b in reversed(widths) for w in (a, b)]),)
    return (_pad_array(grad, [(-a, -b) for a, b in widths], 0),)


PAD_MODES = {}   # mode -> kernel (reflect, replicate, circular: ops/nn_extra.py)


def pad(input, pad, mode="constant", value=None):
    if mode != "constant":
        if mode not in PAD_MODES:
            raise NotImplementedError(f"F.pad(mode='{mode}') is not available in gradrepl")
        return PAD_MODES[mode](input, tuple(pad), mode)
    x = input._a
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > x.ndim:
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {x.ndim}")
    widths = [(0, 0)] * x.ndim
    for i in range(len(pad) // 2):
        widths[x.ndim - 1 - i] = (pad[2 * i], pad[2 * i + 1])
    out = _pad_array(x, widths, 0 if value is None else value)
    return result(out, ConstantPadNdBackward0, (input,), (), widths)


declare("pad", pad, method=False, function=False, functional=True, rules=[ConstantPadNdBackward0])


# ------------------------------------------------------------------ ATen's C++ `tensor / scalar`
def div_scalar(self, other):
    """div(Tensor, Scalar), as ATen's composite ops (cross_entropy with probabilities) call it;
    Python's `t / 2` wraps the number in a tensor and records DivBackward0 instead."""
    x = self._a
    return result(_out(x / x.dtype.type(other), x), DivBackward1, (self,), (), other)


# ------------------------------------------------------------------ the LSTM layer's node
@rule("MkldnnRnnLayerBackward0", ("input",), ("grad (the layer's recurrence is recorded below it)",))
def MkldnnRnnLayerBackward0(grad, xp):
    return (grad,)


def rnn_layer_output(t):
    """An LSTM layer's output under the node PyTorch's CPU kernel records (the recurrence
    itself is recorded step by step below it)."""
    return result(t._a, MkldnnRnnLayerBackward0, (t,))
