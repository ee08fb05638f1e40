"""Losses and the other torch.nn.functional ops that have their own kernels."""
import numpy as np

from gradrepl.engine import kernels, rng
from gradrepl.engine.ops.common import operands, result
from gradrepl.engine.ops.elementwise import DivBackward1, div_scalar
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.summation import full_sum
from gradrepl.engine.tensor import Size, _new
from gradrepl.engine.util import broadcast_shape, legacy_scalar

_max, _min = np.maximum.reduce, np.minimum.reduce   # without ndarray.max's Python wrapper
_add_reduce = np.add.reduce


def _mse_bw(grad_output, self, target, reduction):
    """aten's mse_backward_cpu_kernel: norm * (self - target) * grad_output, norm = 2 / N
    (or 2) rounded to the dtype first."""
    norm = 2.0 / self.size if reduction == "mean" else 2.0
    if self.dtype.kind in "fV":
        norm = self.dtype.type(norm)
    return norm * (self - target) * grad_output


@rule("MseLossBackwardBackward0", ("grad_output", "self", "target"),
      ("sum(2 * (self - target) * grad) / N  (reduction='mean')", "2 * grad * grad_output / N", "-(the same)"),
      saved=("grad_output", "self", "target"), ctx=("reduction",))
def MseLossBackwardBackward0(grad, xp, node, grad_output, self, target, reduction):
    e = node.edges
    n = xp.numel(self)
    g_out = g_self = g_target = None
    if e[0] is not None:
        r = grad * (self - target) * 2
        g_out = xp.sum_to(r / n if reduction == "mean" else r, tuple(grad_output.shape))
    if e[1] is not None or e[2] is not None:
        d = grad * grad_output * 2
        d = d / n if reduction == "mean" else d
        g_self = None if e[1] is None else xp.sum_to(d, tuple(self.shape))
        g_target = None if e[2] is None else xp.sum_to(-d, tuple(target.shape))
    return (g_out, g_self, g_target)


def mse_loss_backward(grad_output, self, target, reduction):
    return result(_mse_bw(grad_output._a, self._a, target._a, reduction), MseLossBackwardBackward0,
                  (grad_output, self, target), (grad_output, self, target), reduction)


declare("mse_loss_backward", mse_loss_backward, method=False, function=False, rules=[MseLossBackwardBackward0])


@rule("MseLossBackward0", ("self", "target"),
      ("mse_loss_backward(grad, self, target)  (2 * (self - target) * grad / N)", "mse_loss_backward(grad, target, self)"),
      saved=("self", "target"), ctx=("reduction",))
def MseLossBackward0(grad, xp, node, self, target, reduction):
    if xp.tensors:
        e = node.edges
        return (None if e[0] is None else mse_loss_backward(grad, self, target, reduction),
                None if e[1] is None else mse_loss_backward(grad, target, self, reduction))
    d = _mse_bw(grad, self, target, reduction)
    return (d, -d)


@rule("NllLossBackward0", ("self", "target"),
      ("nll_loss_backward(grad, self, target)  (-grad / N at [i, target_i], reduction='mean')", "non-differentiable"),
      saved=("self", "target"), ctx=("shape", "reduction", "weight", "ignore_index", "total"))
def NllLossBackward0(grad, xp, self, target, shape, reduction, weight, ignore_index, total):
    if xp.tensors:
        return (nll_loss_backward(grad, self, target, shape, reduction, weight, ignore_index, total), None)
    return (_nll_bw(grad, xp.raw(target), shape, reduction, weight, ignore_index, total), None)


def _nll_bw(grad, t, shape, reduction, weight, ignore_index, total):
    dtype = grad.dtype
    if (weight is None and reduction in ("mean", "sum") and len(shape) == 2
            and t.dtype == np.int64 and (ignore_index < 0 or ignore_index >= shape[1])
            and (not t.size or _min(t, axis=None) >= 0)):
        # every row counts with weight 1: -w * scale is -scale (the general path's values)
        z = np.zeros(shape, dtype)
        z[np.arange(t.shape[0]), t] = -(grad / total if reduction == "mean" else grad)
        return z
    w = np.ones(t.shape, dtype) if weight is None else weight[np.where(t == ignore_index, 0, t)].astype(dtype)
    w = np.where(t == ignore_index, 0, w).astype(dtype)
    z = np.zeros(shape, dtype)
    at = (np.arange(t.shape[0]), np.where(t == ignore_index, 0, t)) if len(shape) == 2 else \
        (0 if t == ignore_index else int(t))
    # PyTorch's kernel: -(grad / total_weight) * weight[target]
    vals = -w * (grad if reduction == "none" else (grad / total if reduction == "mean" else grad))
    if len(shape) == 2:
        keep = t != ignore_index            # ignored rows stay +0, as the kernel skips them
        z[at[0][keep], at[1][keep]] = np.broadcast_to(vals, t.shape)[keep]
    elif t != ignore_index:
        z[at] = vals
    return z


@rule("NllLossBackwardBackward0", ("grad_output", "self"),
      ("nll_loss(grad, target, weight, reduction, ignore_index)", "zeros_like(grad)"),
      saved=("target",), ctx=("reduction", "weight", "ignore_index"))
def NllLossBackwardBackward0(grad, xp, node, target, reduction, weight, ignore_index):
    e = node.edges
    g_out = None
    if e[0] is not None:
        w = None if weight is None else _new(weight)
        if xp.tensors:
            g_out = nll_loss(grad, target, w, ignore_index=ignore_index, reduction=reduction)
        else:
            g_out = nll_loss(_new(grad), _new(target), w, ignore_index=ignore_index, reduction=reduction)._a
    return (g_out, None if e[1] is None else xp.zeros_like(grad))


def nll_loss_backward(grad_output, self, target, shape, reduction, weight, ignore_index, total):
    return result(_nll_bw(grad_output._a, target._a, shape, reduction, weight, ignore_index, total),
                  NllLossBackwardBackward0, (grad_output, self), (target,), (reduction, weight, ignore_index))


declare("nll_loss_backward", nll_loss_backward, method=False, function=False, rules=[NllLossBackwardBackward0])


def _bce_bw(grad_output, self, target, reduction):
    eps = 1e-12
    den = (1 - self) * self
    den = np.maximum(den, eps).astype(den.dtype)
    d = grad_output * (self - target) / den
    return d / self.size if reduction == "mean" else d


@rule("BinaryCrossEntropyBackwardBackward0", ("grad_output", "self", "target"),
      ("sum(grad * (self - target) / max((1 - self) * self, eps)) / N",
       "grad * grad_output * ((self - target) ** 2 + target * (1 - target)) / ((1 - self) * self) ** 2 / N",
       "-grad * grad_output / ((1 - self) * self) / N"),
      saved=("grad_output", "self", "target"), ctx=("reduction",))
def BinaryCrossEntropyBackwardBackward0(grad, xp, node, grad_output, self, target, reduction):
    e = node.edges
    raw = xp.raw(self)
    n = raw.size if reduction == "mean" else 1
    eps = 1e-12
    den = xp.at_least((1 - self) * self, (1 - raw) * raw < eps, eps)
    g_out = g_self = g_target = None
    if e[0] is not None:
        g_out = xp.sum_to(grad * (self - target) / den / n, tuple(grad_output.shape))
    if e[1] is not None:
        diff = self - target
        g_self = grad * grad_output * (diff * diff + target * (1 - target)) / (den * den) / n
    if e[2] is not None:
        g_target = -grad * grad_output / den / n
    return (g_out, g_self, g_target)


def binary_cross_entropy_backward(grad_output, self, target, reduction):
    return result(_bce_bw(grad_output._a, self._a, target._a, reduction), BinaryCrossEntropyBackwardBackward0,
                  (grad_output, self, target), (grad_output, self, target), reduction)


declare("binary_cross_entropy_backward", binary_cross_entropy_backward, method=False, function=False,
        rules=[BinaryCrossEntropyBackwardBackward0])


@rule("BinaryCrossEntropyBackward0", ("self", "target"),
      ("binary_cross_entropy_backward(grad, self, target)  (grad * (self - target) / max((1 - self) * self, eps) / N)",
       "non-differentiable"),
      saved=("self", "target"), ctx=("reduction",))
def BinaryCrossEntropyBackward0(grad, xp, self, target, reduction):
    if xp.tensors:
        return (binary_cross_entropy_backward(grad, self, target, reduction), None)
    return (_bce_bw(grad, self, target, reduction), None)


def reduce_loss(losses, reduction, like):
    """apply_loss_reduction: the elementwise losses rounded to the dtype, then summed in
    PyTorch's order (and divided once for the mean)."""
    losses = np.asarray(losses).astype(like.dtype, copy=False)
    if reduction == "none":
        return losses
    exact = full_sum(losses)
    total = np.sum(losses) if exact is None else exact
    if reduction == "sum":
        return np.asarray(total, losses.dtype)
    return np.asarray(total / losses.dtype.type(losses.size) if losses.size else np.nan, losses.dtype)


def _reduce(t, reduction):
    if reduction == "mean":
        return t.mean()
    if reduction == "sum":
        return t.sum()
    if reduction == "none":
        return t
    raise ValueError(f"{reduction} is not a valid value for reduction")


@declare("mse_loss", method=False, function=False, functional=True, rules=[MseLossBackward0])
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    if input._a.shape != target._a.shape:
        broadcast_shape(input._a.shape, target._a.shape)
    a, b = operands(input, target)
    d = a - b
    out = reduce_loss(d * d, reduction, d)
    return result(np.asarray(out), MseLossBackward0, (input, target), (input, target), reduction)


@declare("l1_loss", method=False, function=False, functional=True, rules=[])
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _reduce((input - target).abs(), reduction)


def _nll_cascade(picked, weights, valid):
    """nll_loss_out_frame's reduction (LossNLL.cpp, float32, no FMA): loss -= picked * weight
    and the weights summed on level 0, flushed up a level after every row whose index has
    its low level_power bits clear (ignored rows are skipped), the 8 levels added in order."""
    f32 = np.float32
    n = picked.shape[0]
    power = max(4, (n - 1).bit_length() // 4) if n else 4
    mask = (1 << power) - 1
    loss, wsum = [f32(0)] * 8, [f32(0)] * 8
    count = 0
    for b in range(n):
        if not valid[b]:
            continue
        count += 1
        if weights is None:
            loss[0] = f32(loss[0] - picked[b])
        else:
            loss[0] = f32(loss[0] - f32(picked[b] * weights[b]))
            wsum[0] = f32(wsum[0] + weights[b])
        for j in range(7):
            if b & (mask << (j * power)):
                break
            wsum[j + 1], loss[j + 1] = f32(wsum[j + 1] + wsum[j]), f32(loss[j + 1] + loss[j])
            wsum[j], loss[j] = f32(0), f32(0)
    total_loss, total_w = f32(0), f32(0)
    for j in range(8):
        total_loss, total_w = f32(total_loss + loss[j]), f32(total_w + wsum[j])
    return total_loss, (f32(count) if weights is None else total_w)


@declare("nll_loss", method=False, function=False, functional=True, rules=[NllLossBackward0])
def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    x = input._a
    t = target._a
    if (x.ndim == 2 and weight is None and reduction in ("mean", "sum") and t.dtype == np.int64 and t.ndim == 1
            and t.shape[0] == x.shape[0] and t.size and (ignore_index < 0 or ignore_index >= x.shape[1])):
        # The common case (class indices, no weights, nothing ignored): the same numbers as
        # the general path below with its all-ones weights left out (-picked * 1 is -picked,
        # their sum is the row count).
        lo, hi = _min(t, axis=None), _max(t, axis=None)
        if lo >= 0 and hi < x.shape[1]:
            total = x.dtype.type(t.shape[0])
            if x.dtype == np.float32:
                loss = kernels.nll_pick_sum(x, t)
            else:
                loss = -_add_reduce(x[np.arange(t.shape[0]), t], axis=None)
            out = loss / total if reduction == "mean" else loss
            return result(np.asarray(out, x.dtype), NllLossBackward0, (input,), (input, target),
                          (x.shape, reduction, None, ignore_index, total))
    if x.ndim not in (1, 2):
        raise ValueError(f"Expected 1 or 2 dimensions (got {x.ndim})")
    if x.ndim == 2 and t.shape[:1] != x.shape[:1]:
        raise ValueError(f"Expected input batch_size ({x.shape[0]}) to match target batch_size "
                         f"({t.shape[0] if t.ndim else 0}).")
    if t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if t.dtype not in (np.int64, np.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {legacy_scalar(target.dtype)}")
    t = t.astype(np.int64)
    w = None if weight is None else weight._a
    if x.ndim == 2:
        valid = t != ignore_index
        tt = np.where(valid, t, 0)
        bad = (tt >= x.shape[1]) | (tt < 0)
        if bad.any():       # the first target out of range, as the kernel meets it
            raise IndexError(f"Target {int(tt[bad][0])} is out of bounds.")
        picked = x[np.arange(x.shape[0]), tt]
        ww = np.ones_like(picked) if w is None else w[tt].astype(x.dtype)
        ww = np.where(valid, ww, 0).astype(x.dtype)
        losses = -picked * ww
        total = ww.sum()
    else:
        valid = int(t) != ignore_index
        picked = x[int(t)] if valid else x.dtype.type(0)
        ww = x.dtype.type(1 if w is None else w[int(t)]) if valid else x.dtype.type(0)
        losses = np.asarray(-picked * ww)
        total = ww
    if reduction != "none" and x.ndim == 2 and x.dtype == np.float32:
        loss, wsum = _nll_cascade(picked, None if w is None else ww, valid)
        total = wsum
        out = np.asarray(loss if reduction == "sum" else loss / wsum, x.dtype)
        return result(out, NllLossBackward0, (input,), (input, target), (x.shape, reduction, w, ignore_index, total))
    if reduction == "none":
        out = losses
    elif reduction == "sum":
        out = np.asarray(losses.sum(), x.dtype)
    else:
        out = np.asarray(losses.sum() / total, x.dtype)
    return result(np.asarray(out, x.dtype), NllLossBackward0, (input,), (input, target),
                   (x.shape, reduction, w, ignore_index, total))


@declare("cross_entropy", method=False, function=False, functional=True, rules=[DivBackward1])
def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    if target.dtype.is_floating_point:   # class probabilities: PyTorch's cross_entropy_loss_prob_target
        class_dim = 1 if input.ndim > 1 else 0
        terms = input.log_softmax(class_dim) * target
        if reduction == "none":
            return -terms.sum(class_dim)
        if reduction == "sum":
            return -terms.sum()
        if reduction != "mean":
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return div_scalar(-terms.sum(), input.numel() // input.shape[class_dim])
    return nll_loss(input.log_softmax(1 if input.ndim > 1 else 0), target, weight, ignore_index=ignore_index,
                    reduction=reduction)


@declare("binary_cross_entropy", method=False, function=False, functional=True,
         rules=[BinaryCrossEntropyBackward0])
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    x, y = input._a, target._a
    if y.dtype != x.dtype:
        raise RuntimeError(f"Found dtype {legacy_scalar(target.dtype)} but expected {legacy_scalar(input.dtype)}")
    if x.shape != y.shape:
        raise ValueError(f"Using a target size ({Size(y.shape)!r}) that is different to the input size "
                         f"({Size(x.shape)!r}) is deprecated. Please ensure they have the same size.")
    if (x < 0).any() or (x > 1).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    with np.errstate(divide="ignore"):
        lx = np.maximum(np.log(x), -100)
        l1x = np.maximum(np.log(1 - x), -100)
    losses = -(y * lx + (1 - y) * l1x)
    if weight is not None:
        losses = losses * weight._a
    out = reduce_loss(losses, reduction, x)
    return result(np.asarray(out, x.dtype), BinaryCrossEntropyBackward0, (input,), (input, target), reduction)


def memory_order(a):
    """The axes of `a` from outermost to innermost in memory when `a` is a permuted dense
    block (a transposed view), else None. PyTorch's empty_like keeps such strides and its
    random fills run in memory order, so a mask for a transposed input is drawn in that order."""
    if a.ndim < 2 or a.flags.c_contiguous:
        return None
    axes = [d for d in range(a.ndim) if a.shape[d] > 1]
    order = sorted(axes, key=lambda d: -a.strides[d])
    step = a.itemsize
    for d in reversed(order):
        if a.strides[d] != step:
            return None
        step *= a.shape[d]
    return [d for d in range(a.ndim) if a.shape[d] <= 1] + order


@declare("dropout", method=False, function=False, functional=True, rules=[])
def dropout(input, p=0.5, training=True, inplace=False):
    if not training or p == 0:
        return input
    if p == 1:
        return input * 0
    # the mask is already scaled by 1 / (1 - p), as PyTorch's
    a = input._a
    order = memory_order(a)
    if order is None:
        mask = rng.default_generator.dropout_mask(a.shape, p, a.dtype)
    else:
        mask = rng.default_generator.dropout_mask(tuple(a.shape[d] for d in order), p, a.dtype)
        mask = np.transpose(mask, np.argsort(order))
    return input * _new(np.asarray(mask, a.dtype))
