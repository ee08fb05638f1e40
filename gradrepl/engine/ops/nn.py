"""The kernels of torch.nn's layers: addmm (nn.Linear), activations, losses, convolution,
pooling, embedding, layer and batch norm, pad, one_hot.

Forwards compute in the tensor's dtype (transcendental parts in float64, rounded once);
rules are written against xp where the formula is elementwise, so create_graph works for
them; the structural ones (convolution, pooling, norms) compute their gradient on arrays.
"""
import math

import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.ops.common import result
from gradrepl.engine.ops.elementwise import DivBackward1
from gradrepl.engine.ops.loss import reduce_loss
from gradrepl.engine.ops.registry import RESULT, declare, rule
from gradrepl.engine.tensor import Size, Tensor, _new
from gradrepl.engine.util import cname, legacy_scalar, pytype, warn

_erf64 = np.frompyfunc(math.erf, 1, 1)


def _erf(x):
    return _erf64(x).astype(np.float64)


def _f64(a):
    return a.astype(np.float64)


def _out(values, like):
    return np.asarray(values).astype(like.dtype, copy=False)


def first_order(xp, name, *values):
    """Rules computed on arrays give first derivatives only: under create_graph=True, when a
    second derivative would flow through them, say so instead of returning a wrong one."""
    if xp.tensors and any(v is not None and xp.is_tensor(v) and v.requires_grad for v in values):
        raise NotImplementedError(f"double backward through {name} is not available in gradrepl "
                                  "(create_graph=True)")


def _float_input(t, name):
    if type(t) is not Tensor:
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {pytype(t)}")
    if t._a.dtype.kind != "f":
        raise NotImplementedError(f"\"{name}\" not implemented for '{legacy_scalar(D.from_np(t._a.dtype))}'")
    return t._a


# ------------------------------------------------------------------ addmm (nn.Linear)
@rule("AddmmBackward0", ("self", "mat1", "mat2"),
      ("grad * beta (summed to self's shape)", "alpha * grad @ mat2.T", "alpha * mat1.T @ grad"),
      saved=("mat1", "mat2"), ctx=("self_shape", "beta", "alpha"), needed_by=((2,), (1,)))
def AddmmBackward0(grad, xp, node, mat1, mat2, self_shape, beta, alpha):
    e = node.edges
    g_self = xp.sum_to(grad if beta == 1 else grad * beta, self_shape) if e[0] is not None else None
    g1 = xp.matmul(grad, xp.mT(mat2)) if e[1] is not None else None
    g2 = xp.matmul(xp.mT(mat1), grad) if e[2] is not None else None
    if alpha != 1:
        g1 = None if g1 is None else g1 * alpha
        g2 = None if g2 is None else g2 * alpha
    return (g_self, g1, g2)


@declare("addmm", rules=[AddmmBackward0])
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


@rule("GeluBackward0", ("self",), ("grad * (Phi(self) + self * phi(self))",), saved=("self",),
      ctx=("approximate",))
def GeluBackward0(grad, xp, self, approximate):
    if xp.tensors:      # written with ops, so that create_graph differentiates it again
        if approximate == "tanh":
            t = ((self + self * self * self * _KAPPA) * _TANH_BETA).tanh()
            inner = (1 + self * self * (3 * _KAPPA)) * _TANH_BETA
            return (grad * ((1 + t) * 0.5 + self * 0.5 * (1 - t * t) * inner),)
        cdf = ((self * _SQRT1_2).erf() + 1) * 0.5
        return (grad * (cdf + self * (self * self * -0.5).exp() * _BETA),)
    return (grad * xp.constant(_out(_gelu_grad(xp.raw(self), approximate), xp.raw(self))),)


def gelu(input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")

    def fn(x):
        x = _f64(x)
        if approximate == "tanh":
            return 0.5 * x * (1 + np.tanh(_TANH_BETA * (x + _KAPPA * x ** 3)))
        return x * 0.5 * (1 + _erf(x * _SQRT1_2))
    return _activation(input, "gelu", fn, GeluBackward0, (input,), approximate)


declare("gelu", gelu, method=False, function=False, functional=True, rules=[GeluBackward0])


@rule("EluBackward0", ("self",), ("grad * (self > 0 ? scale : alpha * scale * input_scale * exp(self * input_scale))",),
      saved=("self",), ctx=("alpha", "scale", "input_scale"))
def EluBackward0(grad, xp, self, alpha, scale, input_scale):
    x = xp.raw(self)
    if xp.tensors:
        pos = xp.constant(_out(_f64(x) > 0, x))
        return (grad * (pos * scale + (1 - pos) * (self * input_scale).exp() * (alpha * scale * input_scale)),)
    neg = _f64(x) <= 0
    d = np.where(neg, alpha * scale * input_scale * np.exp(_f64(x) * input_scale), scale)
    return (grad * xp.constant(_out(d, x)),)


def _elu(input, alpha, scale, input_scale, name, spec):
    def fn(x):
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
    s = _sig64(x)
    return (grad * xp.constant(_out(s * (1 + _f64(x) * (1 - s)), x)),)


def silu(input, inplace=False):
    return _activation(input, "silu", lambda x: _f64(x) * _sig64(x), SiluBackward0, (input,), None)


declare("silu", silu, method=False, function=False, functional=True, rules=[SiluBackward0])


@rule("MishBackward0", ("self",), ("grad * (tanh(softplus(self)) + self * sigmoid(self) * (1 - tanh(softplus(self))^2))",),
      saved=("self",))
def MishBackward0(grad, xp, self):
    if xp.tensors:
        t = softplus(self).tanh()
        return (grad * (t + self * self.sigmoid() * (1 - t * t)),)
    x = xp.raw(self)
    x64 = _f64(x)
    t = np.tanh(np.logaddexp(0, x64))
    return (grad * xp.constant(_out(t + x64 * _sig64(x) * (1 - t * t), x)),)


def mish(input, inplace=False):
    return _activation(input, "mish", lambda x: _f64(x) * np.tanh(np.logaddexp(0, _f64(x))), MishBackward0,
                       (input,), None)


declare("mish", mish, method=False, function=False, functional=True, rules=[MishBackward0])


@rule("SoftplusBackward0", ("self",), ("grad * (self * beta > threshold ? 1 : sigmoid(self * beta))",),
      saved=("self",), ctx=("beta", "threshold"))
def SoftplusBackward0(grad, xp, self, beta, threshold):
    x = xp.raw(self)
    if xp.tensors:
        linear = xp.constant(_out(_f64(x) * beta > threshold, x))
        return (grad * (linear + (1 - linear) * (self * beta).sigmoid()),)
    z = np.exp(_f64(x) * beta)
    d = np.where(_f64(x) * beta > threshold, 1.0, z / (z + 1))
    return (grad * xp.constant(_out(d, x)),)


def softplus(input, beta=1.0, threshold=20.0):
    def fn(x):
        xb = _f64(x) * beta
        with np.errstate(over="ignore"):
            return np.where(xb > threshold, _f64(x), np.log1p(np.exp(xb)) / beta)
    return _activation(input, "softplus", fn, SoftplusBackward0, (input,), (beta, threshold))


declare("softplus", softplus, method=False, function=False, functional=True, rules=[SoftplusBackward0])


@rule("HardtanhBackward0", ("self",), ("grad * (min_val < self < max_val)",), saved=("self",),
      ctx=("min_val", "max_val"))
def HardtanhBackward0(grad, xp, self, min_val, max_val):
    x = xp.raw(self)
    return (xp.zero_where((x <= min_val) | (x >= max_val), grad),)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    x = _float_input(input, "hardtanh")
    out = np.clip(x, x.dtype.type(min_val), x.dtype.type(max_val))
    return result(out, HardtanhBackward0, (input,), (input,), (min_val, max_val))


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0)


declare("hardtanh", hardtanh, method=False, function=False, functional=True, rules=[HardtanhBackward0])
declare("relu6", relu6, method=False, function=False, functional=True, rules=[])


@rule("HardsigmoidBackward0", ("self",), ("grad / 6 where -3 < self < 3",), saved=("self",))
def HardsigmoidBackward0(grad, xp, self):
    x = xp.raw(self)
    return (xp.zero_where((x <= -3) | (x >= 3), grad * _ONE_SIXTH),)


_ONE_SIXTH = float(np.float32(1.0) / np.float32(6.0))   # PyTorch's `1.0f / 6.0f`, in every dtype


def hardsigmoid(input, inplace=False):
    return _activation(input, "hardsigmoid", lambda x: np.clip(_f64(x) + 3, 0, 6) / 6, HardsigmoidBackward0,
                       (input,), None)


declare("hardsigmoid", hardsigmoid, method=False, function=False, functional=True, rules=[HardsigmoidBackward0])


@rule("HardswishBackward0", ("self",), ("grad * (self < -3 ? 0 : self <= 3 ? self / 3 + 0.5 : 1)",),
      saved=("self",))
def HardswishBackward0(grad, xp, self):
    x = xp.raw(self)
    if xp.tensors:
        middle = xp.constant(_out((x >= -3) & (x <= 3), x))
        return (grad * (middle * (self / 3 + 0.5) + xp.constant(_out(x > 3, x))),)
    d = np.where(x < -3, 0.0, np.where(x <= 3, _f64(x) / 3 + 0.5, 1.0))
    return (grad * xp.constant(_out(d, x)),)


def hardswish(input, inplace=False):
    return _activation(input, "hardswish", lambda x: _f64(x) * np.clip(_f64(x) + 3, 0, 6) / 6, HardswishBackward0,
                       (input,), None)


declare("hardswish", hardswish, method=False, function=False, functional=True, rules=[HardswishBackward0])


@rule("LogSigmoidBackward0", ("self",), ("grad * sigmoid(-self)",), saved=("self",))
def LogSigmoidBackward0(grad, xp, self):
    if xp.tensors:
        return (grad * (-self).sigmoid(),)
    x = xp.raw(self)
    return (grad * xp.constant(_out(_sig64(-_f64(x)), x)),)


def logsigmoid(input):
    def fn(x):
        x64 = _f64(x)
        return np.minimum(x64, 0) - np.log1p(np.exp(-np.abs(x64)))
    return _activation(input, "log_sigmoid_forward", fn, LogSigmoidBackward0, (input,), None)


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


@rule("SmoothL1LossBackward0", ("self", "target"), ("grad * clamp((self - target) / beta, -1, 1) / N", "-(the same)"),
      saved=("self", "target"), ctx=("reduction", "beta"))
def SmoothL1LossBackward0(grad, xp, self, target, reduction, beta):
    first_order(xp, "SmoothL1LossBackward0", self, target)
    x, y = np.broadcast_arrays(xp.raw(self), xp.raw(target))
    d = _f64(x) - _f64(y)
    g = np.where(d < -beta, -1.0, np.where(d > beta, 1.0, d / beta if beta else 0.0))
    return _loss_grads(grad, xp, g, x, reduction, self, target)


def _loss_grads(grad, xp, local, like, reduction, self, target):
    g = xp.constant(_out(local, like))
    if reduction == "mean":
        g = g / like.size
    g = g * grad
    return (xp.sum_to(g, xp.raw(self).shape), xp.sum_to(-g, xp.raw(target).shape))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _check_target_size(input, target)
    reduction = _reduction(reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    x, y = _pairwise(input, target)
    z = np.abs(_f64(x) - _f64(y))
    losses = np.where(z < beta, 0.5 * z * z / (beta or 1), z - 0.5 * beta)
    return result(reduce_loss(losses, reduction, x), SmoothL1LossBackward0, (input, target), (input, target),
                  (reduction, beta))


declare("smooth_l1_loss", smooth_l1_loss, method=False, function=False, functional=True,
        rules=[SmoothL1LossBackward0])


@rule("HuberLossBackward0", ("self", "target"), ("grad * clamp(self - target, -delta, delta) / N", "-(the same)"),
      saved=("self", "target"), ctx=("reduction", "delta"))
def HuberLossBackward0(grad, xp, self, target, reduction, delta):
    first_order(xp, "HuberLossBackward0", self, target)
    x, y = np.broadcast_arrays(xp.raw(self), xp.raw(target))
    d = _f64(x) - _f64(y)
    return _loss_grads(grad, xp, np.clip(d, -delta, delta), x, reduction, self, target)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    _check_target_size(input, target)
    reduction = _reduction(reduction)
    x, y = _pairwise(input, target)
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
    first_order(xp, "BinaryCrossEntropyWithLogitsBackward0", self, target)
    x, y = xp.raw(self), xp.raw(target)
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


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    reduction = _reduction(reduction)
    if input._a.shape != target._a.shape:
        raise ValueError(f"Target size ({Size(target._a.shape)!r}) must be the same as input size "
                         f"({Size(input._a.shape)!r})")
    x, y = _f64(input._a), _f64(target._a)
    log_sig = np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))
    pw = None if pos_weight is None else _f64(pos_weight._a)
    if pw is not None:
        log_sig = log_sig * ((pw - 1) * y + 1)
    losses = (1 - y) * x - log_sig
    w = None if weight is None else _f64(weight._a)
    if w is not None:
        losses = losses * w
    return result(reduce_loss(losses, reduction, input._a), BinaryCrossEntropyWithLogitsBackward0, (input, target),
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
    first_order(xp, "ConvolutionBackward0", grad, input, weight)
    x, w, g = xp.raw(input), xp.raw(weight), xp.raw(grad)
    n = w.ndim - 2
    pad = [(0, 0), (0, 0)] + [(p, p) for p in padding]
    xpad = np.pad(x, pad)
    _, views = _windows(xpad, w.shape[2:], stride, dilation)
    cin_g, cout_g = w.shape[1], w.shape[0] // groups
    gx = np.zeros(xpad.shape, np.float64) if node.edges[0] is not None else None
    gw = np.zeros(w.shape, np.float64) if node.edges[1] is not None else None
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
        gx = xp.constant(_out(gx[crop], x))
    gb = None
    if has_bias and node.edges[2] is not None:
        gb = xp.constant(_out(g64.sum(axis=(0, *range(2, 2 + n))), g))
    return (gx, None if gw is None else xp.constant(_out(gw, w)), gb)


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
    xpad = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out_sp, views = _windows(xpad, w.shape[2:], stride, dilation)
    if any(o <= 0 for o in out_sp):
        raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(str(s) for s in xpad.shape[2:])}). "
                           f"Kernel size: ({' x '.join(str(s) for s in w.shape[2:])}). Kernel size can't be greater "
                           "than actual input size")
    cin_g, cout_g = w.shape[1], w.shape[0] // groups
    out = np.zeros((x.shape[0], w.shape[0], *out_sp), np.float64)
    for gi in range(groups):
        for offset, idx in views:
            patch = _f64(xpad[(slice(None), slice(gi * cin_g, (gi + 1) * cin_g)) + idx[2:]])
            wk = _f64(w[(slice(gi * cout_g, (gi + 1) * cout_g), slice(None)) + tuple(offset)])
            out[:, gi * cout_g:(gi + 1) * cout_g] += np.einsum("nc...,oc->no...", patch, wk)
    if bias is not None:
        out += _f64(bias._a).reshape((1, -1) + (1,) * n)
    inputs = (input if not unbatched else input.unsqueeze(0), weight, bias)
    t = result(_out(out, x), ConvolutionBackward0, inputs, (inputs[0], weight),
               (stride, padding, dilation, groups, bias is not None))
    return t.squeeze(0) if unbatched else t


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
    first_order(xp, "MaxPool2DWithIndicesBackward0", grad)
    x, idx, g = xp.raw(self), xp.raw(indices), xp.raw(grad)
    H, W = x.shape[-2:]
    lead = int(np.prod(x.shape[:-2]))
    gx = np.zeros((lead, H * W), g.dtype)
    np.add.at(gx, (np.arange(lead)[:, None], idx.reshape(lead, -1)), g.reshape(lead, -1))
    return (xp.constant(gx.reshape(x.shape)),)


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
    first_order(xp, "AvgPool2DBackward0", grad)
    x, g = xp.raw(self), xp.raw(grad)
    H, W = x.shape[-2:]
    out = g.shape[-2:]
    _, flat = _pool_windows(x, kernel, stride, padding, (1, 1), out, 0)
    div = _avg_divisor(x.shape[-2:], kernel, stride, padding, out, count_include_pad, divisor_override)
    lead = int(np.prod(x.shape[:-2]))
    share = (_f64(g) / div).reshape(lead, out[0], out[1], 1)
    share = np.broadcast_to(share, (lead, out[0], out[1], flat.shape[-1]))
    gx = np.zeros((lead, H * W + 1), np.float64)
    target = np.where(flat >= 0, flat, H * W)
    np.add.at(gx, (np.arange(lead)[:, None, None, None], np.broadcast_to(target, share.shape)), share)
    return (xp.constant(_out(gx[:, :H * W].reshape(x.shape), x)),)


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
    res = _out(_f64(vals).sum(-1) / div, x)
    return result(res, AvgPool2DBackward0, (input,), (input,),
                  (kernel, stride, padding, ceil_mode, count_include_pad, divisor_override))


declare("avg_pool2d", avg_pool2d, method=False, function=False, functional=True, rules=[AvgPool2DBackward0])


# ------------------------------------------------------------------ embedding
@rule("EmbeddingBackward0", ("weight",), ("grad rows added at the indices",), saved=("indices",),
      ctx=("num_weights", "padding_idx"))
def EmbeddingBackward0(grad, xp, indices, num_weights, padding_idx):
    first_order(xp, "EmbeddingBackward0", grad)
    idx, g = xp.raw(indices), xp.raw(grad)
    gw = np.zeros((num_weights, g.shape[-1]), g.dtype)
    np.add.at(gw, idx.reshape(-1), g.reshape(-1, g.shape[-1]))
    if padding_idx is not None and padding_idx >= 0:
        gw[padding_idx] = 0
    return (xp.constant(gw),)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    idx = input._a
    if idx.dtype.kind not in "iu":
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{D.from_np(idx.dtype).legacy} instead (while checking "
                           "arguments for embedding)")
    n = weight._a.shape[0]
    if idx.size and (idx.max() >= n or idx.min() < -n):
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
      saved=("input", "weight"), ctx=("axes", "mean", "rstd"), optional=("weight",))
def NativeLayerNormBackward0(grad, xp, node, input, weight, axes, mean, rstd):
    first_order(xp, "NativeLayerNormBackward0", grad, input, weight)
    x, g = _f64(xp.raw(input)), _f64(xp.raw(grad))
    xhat = (x - mean) * rstd
    lead = tuple(range(x.ndim - len(axes)))
    gw = gb = gx = None
    if node.edges[1] is not None:
        gw = xp.constant(_out((g * xhat).sum(axis=lead), xp.raw(grad)))
    if node.edges[2] is not None:
        gb = xp.constant(_out(g.sum(axis=lead), xp.raw(grad)))
    if node.edges[0] is not None:
        wg = g if weight is None else g * _f64(xp.raw(weight))
        m1 = wg.mean(axis=axes, keepdims=True)
        m2 = (wg * xhat).mean(axis=axes, keepdims=True)
        gx = xp.constant(_out((wg - m1 - xhat * m2) * rstd, xp.raw(grad)))
    return (gx, gw, gb)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    x = input._a
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(shape)
    if x.shape[x.ndim - k:] != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(str(s) for s in shape)}], but got input of size{list(x.shape)}")
    axes = tuple(range(x.ndim - k, x.ndim))
    x64 = _f64(x)
    mean = x64.mean(axis=axes, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    y = (x64 - mean) * rstd
    if weight is not None:
        y = y * _f64(weight._a)
    if bias is not None:
        y = y + _f64(bias._a)
    return result(_out(y, x), NativeLayerNormBackward0, (input, weight, bias), (input, weight), (axes, mean, rstd))


declare("layer_norm", layer_norm, method=False, functional=True, rules=[NativeLayerNormBackward0])


@rule("NativeBatchNormBackward0", ("input", "weight", "bias"),
      ("training: (grad - mean(grad) - xhat * mean(grad * xhat)) * weight * invstd; eval: grad * weight * invstd",
       "sum(grad * xhat)", "sum(grad)"),
      saved=("input", "weight"), ctx=("axes", "mean", "invstd", "training"), optional=("weight",))
def NativeBatchNormBackward0(grad, xp, node, input, weight, axes, mean, invstd, training):
    first_order(xp, "NativeBatchNormBackward0", grad, input, weight)
    x, g = _f64(xp.raw(input)), _f64(xp.raw(grad))
    xhat = (x - mean) * invstd
    gw = gb = gx = None
    if node.edges[1] is not None:
        gw = xp.constant(_out((g * xhat).sum(axis=axes), xp.raw(grad)))
    if node.edges[2] is not None:
        gb = xp.constant(_out(g.sum(axis=axes), xp.raw(grad)))
    if node.edges[0] is not None:
        w = 1.0 if weight is None else _f64(xp.raw(weight)).reshape(mean.shape)
        if training:
            d = (g - g.mean(axis=axes, keepdims=True) - xhat * (g * xhat).mean(axis=axes, keepdims=True)) * invstd * w
        else:
            d = g * invstd * w
        gx = xp.constant(_out(d, xp.raw(grad)))
    return (gx, gw, gb)


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    x = input._a
    if x.ndim < 2:
        raise ValueError(f"expected 2D or 3D input (got {x.ndim}D input)")
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
                  (axes, mean, invstd, training))


declare("batch_norm", batch_norm, method=False, function=False, functional=True, rules=[NativeBatchNormBackward0])


# ------------------------------------------------------------------ pad
def _pad_array(x, widths, value):
    """x padded by (before, after) per dim; negative widths cut elements off."""
    out = np.pad(x, [(max(a, 0), max(b, 0)) for a, b in widths], constant_values=value)
    cut = tuple(slice(-a if a < 0 else 0, out.shape[d] + b if b < 0 else None) for d, (a, b) in enumerate(widths))
    return np.ascontiguousarray(out[cut])


@rule("ConstantPadNdBackward0", ("self",), ("constant_pad_nd(grad, -pad, 0)",), ctx=("widths",))
def ConstantPadNdBackward0(grad, xp, widths):
    first_order(xp, "ConstantPadNdBackward0", grad)
    return (xp.constant(_pad_array(xp.raw(grad), [(-a, -b) for a, b in widths], 0)),)


def pad(input, pad, mode="constant", value=None):
    if mode != "constant":
        raise NotImplementedError(f"F.pad(mode='{mode}') is not available in gradrepl (only 'constant')")
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
