"""More of torch.nn.functional's kernels (issue 14): attention, channel and feature dropout,
pixel shuffle, 1-d and adaptive max pooling, group and instance norm, prelu and rrelu.

Where ATen composes an op from others (the math path of scaled_dot_product_attention,
instance_norm through batch_norm, max_pool1d through max_pool2d) the forward composes the
same ops, so the graph holds PyTorch's nodes; the rest are kernels with their own rule.
"""
import math

import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine import cpu, kernels, onednn, rng
from gradrepl.engine.autograd import GRAD
from gradrepl.engine.ops.common import as_tensor, result
from gradrepl.engine.ops.elementwise import MulBackward1, NotImplemented_
from gradrepl.engine.ops.inplace import inplace as _inplace
from gradrepl.engine.ops.nn import (PAD_MODES, _conv, _conv_arrays, _conv_bw, _conv_op, _conv_forward, _f64, _float_input,
                                    _max_pool_bw, _out, _tuple, _windows, adaptive_avg_pool1d, adaptive_avg_pool2d,
                                    avg_pool2d, batch_norm, convolution_backward, embedding, max_pool2d,
                                    max_pool2d_with_indices_backward)
from gradrepl.engine.ops.reduce import SoftmaxBackward0, pairwise_distance, softmax_kernel
from gradrepl.engine.ops.registry import RESULT, declare, rule
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import pytype, shape_list, warn, wrap_dim


def _mul_cpp(t, number):
    """mul(Tensor, Scalar) as ATen's C++ calls it: MulBackward1 (Python's `t * 2` is MulBackward0)."""
    a = t._a
    return result((a * a.dtype.type(number)).astype(a.dtype, copy=False), MulBackward1, (t,), (), (a.shape, number))


# ------------------------------------------------------------------ attention
SafeSoftmaxBackward0 = rule("SafeSoftmaxBackward0", ("self",), SoftmaxBackward0.formulas, saved=("result",),
                            ctx=("dim",))(SoftmaxBackward0.fn)


def safe_softmax(input, dim):
    """at::_safe_softmax: softmax, with 0 (not NaN) on rows that are all -inf."""
    d = wrap_dim(dim, input._a.ndim)
    out = softmax_kernel(_new(input._a), d)._a
    dead = np.all(input._a == -np.inf, axis=d, keepdims=True)
    if dead.any():
        out = np.where(dead, out.dtype.type(0), out)
    return result(out, SafeSoftmaxBackward0, (input,), (RESULT,), d)


declare("safe_softmax", safe_softmax, method=False, function=False, rules=[SafeSoftmaxBackward0])


def _flash_bw(grad, xp, q, k, v, p, scale):
    """The gradients of softmax(q @ k^T * scale + mask) @ v, given the probabilities p."""
    g_v = xp.matmul(xp.mT(p), grad)
    g_p = xp.matmul(grad, xp.mT(v))
    g_s = p * (g_p - xp.sum(g_p * p, (-1,), True))
    return xp.matmul(g_s, k) * scale, xp.matmul(xp.mT(g_s), q) * scale, g_v


@rule("ScaledDotProductFlashAttentionForCpuBackward0", ("query", "key", "value"),
      ("softmax_backward(grad @ value^T) @ key * scale", "softmax_backward(grad @ value^T)^T @ query * scale",
       "attn^T @ grad"),
      saved=("query", "key", "value", "attn"), ctx=("scale", "mask"))
def ScaledDotProductFlashAttentionForCpuBackward0(grad, xp, node, query, key, value, attn, scale, mask):
    if xp.tensors:   # the probabilities again, as a function of query and key
        sf = math.sqrt(abs(scale))
        s = xp.matmul(query * (sf if scale > 0 else -sf), xp.mT(key) * sf)
        attn = (s if mask is None else s + xp.constant(mask)).softmax(-1)
    gq, gk, gv = _flash_bw(grad, xp, query, key, value, attn, scale)
    e = node.edges
    return (gq if e[0] is not None else None, gk if e[1] is not None else None, gv if e[2] is not None else None)


def _bool_mask(mask, dtype):
    return np.where(mask, dtype.type(0), dtype.type(-np.inf))


def _attention_arrays(q, k, v, mask, scale):
    """The math path on arrays: (output, probabilities)."""
    sf = q.dtype.type(math.sqrt(scale))
    s = np.matmul(q * sf, np.swapaxes(k, -2, -1) * sf)
    if mask is not None:
        s = s + mask
    m = np.max(s, axis=-1, keepdims=True)
    m = np.where(np.isneginf(m), 0, m)
    e = np.exp(_f64(s - m))
    total = e.sum(-1, keepdims=True)
    p = np.where(total == 0, 0, e / np.where(total == 0, 1, total)).astype(q.dtype)
    return np.matmul(p, v).astype(q.dtype, copy=False), p


# torch.nn.attention.sdpa_kernel's choice (nn/attention.py): the SDPBackend values enabled,
# None outside it (all). A CPU-only PyTorch runs two of them.
SDP_ENABLED = [None]
SDP_MATH, SDP_FLASH = 0, 1
NO_VIABLE_BACKEND = ("No viable backend for scaled_dot_product_attention was found. This is likely due to turning "
                     "off both the math kernel and the fused kernels.")


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    for name, t, pos in (("query", query, 1), ("key", key, 2), ("value", value, 3)):
        if type(t) is not Tensor:
            raise TypeError(f"scaled_dot_product_attention(): argument '{name}' (position {pos}) must be Tensor, "
                            f"not {pytype(t)}")
    q, k, v = query._a, key._a, value._a
    if not (q.dtype == k.dtype == v.dtype):
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_ctype(q)} key.dtype: {_ctype(k)} and value.dtype: {_ctype(v)} instead.")
    softmax_scale = (1.0 / math.sqrt(q.shape[-1])) if scale is None else abs(scale)
    mask = None
    if is_causal:
        mask = _new(_bool_mask(np.tril(np.ones((q.shape[-2], k.shape[-2]), bool)), q.dtype))
    elif attn_mask is not None:
        mask = _new(_bool_mask(attn_mask._a, q.dtype)) if attn_mask._a.dtype == np.bool_ else attn_mask
    flash = (q.ndim == 4 and k.ndim == 4 and v.ndim == 4 and dropout_p == 0.0 and q.dtype.kind == "f"
             and not enable_gqa)
    enabled = SDP_ENABLED[0]
    if enabled is not None:     # inside torch.nn.attention.sdpa_kernel(...)
        if SDP_MATH not in enabled and SDP_FLASH not in enabled:
            raise RuntimeError(NO_VIABLE_BACKEND)
        flash = flash and SDP_FLASH in enabled
        if not flash and SDP_MATH not in enabled:
            warn("UserWarning", "Flash attention kernel not used because:")
            if dropout_p > 0.0:
                warn("UserWarning", "Both fused kernels do not support non-zero dropout.")
            raise RuntimeError("No available kernel.  Aborting execution.")
    if flash:   # PyTorch's CPU flash kernel: one node
        out, p = _attention_arrays(q, k, v, None if mask is None else mask._a, softmax_scale)
        if scale is not None and scale < 0:
            out, p = _attention_arrays(-q, k, v, None if mask is None else mask._a, softmax_scale)
        sign = -softmax_scale if scale is not None and scale < 0 else softmax_scale
        laid = np.empty_like(q)     # the kernel's output is empty_like(query): a transposed query's
        laid[...] = out             # layout (q.view(B, L, H, D).transpose(1, 2)) carries over
        return result(laid, ScaledDotProductFlashAttentionForCpuBackward0, (query, key, value),
                      (query, key, value, _new(p)), (sign, None if mask is None else mask._a))
    # _scaled_dot_product_attention_math: float16/bfloat16 computed in float32, cast back at the end
    origin = query.dtype if q.dtype.kind == "V" or q.dtype == np.float16 else None
    if origin is not None:
        query, key, value = query.to(D.float32), key.to(D.float32), value.to(D.float32)
    sf = math.sqrt(softmax_scale)
    qs = _mul_cpp(query, 0.0 - sf if scale is not None and scale < 0 else sf)
    attn = qs.matmul(_mul_cpp(key.transpose(-2, -1), sf))
    if mask is not None:
        attn = attn.add_(mask)
    attn = safe_softmax(attn, -1)
    if dropout_p > 0.0:
        attn = dropout_kernel(attn, dropout_p, True)
    out = attn.matmul(value)
    return out if origin is None else out.to(origin)


def _ctype(a):
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16"}.get(
        a.dtype.name, a.dtype.name)


declare("scaled_dot_product_attention", scaled_dot_product_attention, method=False, function=False,
        functional=True, rules=[ScaledDotProductFlashAttentionForCpuBackward0])


# ------------------------------------------------------------------ dropout and its variants
_ALPHA = 1.7580993408473766


def _feature_noise_shape(a):
    if a.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return a.shape[:2] + (1,) * (a.ndim - 2)


def _dropout(input, p, train, feature, alpha, inplace=False):
    """ATen's _dropout_impl: a Bernoulli(1 - p) noise (per channel for the feature variants)."""
    if type(input) is not Tensor:
        raise TypeError(f"dropout(): argument 'input' (position 1) must be Tensor, not {pytype(input)}")
    a = input._a
    if p < 0 or p > 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or a.size == 0:
        return input
    if p == 1:
        zero = _new(np.zeros((), a.dtype))
        return input.mul_(zero) if inplace else input.mul(zero)
    shape = _feature_noise_shape(a) if feature else a.shape
    noise = rng.default_generator.bernoulli(1 - p, shape, a.dtype).astype(a.dtype, copy=False)
    if alpha:
        scale = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
        b = ((noise + a.dtype.type(-1)) * a.dtype.type(_ALPHA * scale) + a.dtype.type(_ALPHA * scale * p))
        noise = noise * a.dtype.type(scale)
        out = input.mul_(_new(noise)) if inplace else input.mul(_new(noise))
        return out.add_(_new(b.astype(a.dtype, copy=False)))
    noise = noise / a.dtype.type(1 - p)
    return input.mul_(_new(noise)) if inplace else input.mul(_new(noise))


def dropout_kernel(input, p, train):
    return _dropout(input, p, train, False, False)


def _dropout_variant(name, feature, alpha, inplace):
    def fn(input, p, train):
        return _dropout(input, p, train, feature, alpha, inplace)
    fn.__name__ = fn.__qualname__ = name
    declare(name, fn, method=False, rules=[])


for _name, _feature, _alpha in (("dropout", False, False), ("feature_dropout", True, False),
                                ("alpha_dropout", False, True), ("feature_alpha_dropout", True, True)):
    if _name != "dropout":
        _dropout_variant(_name, _feature, _alpha, False)
    _dropout_variant(_name + "_", _feature, _alpha, True)


def _torch_dropout(input, p, train):
    return _dropout(input, p, train, False, False)


declare("torch_dropout", _torch_dropout, method=False, function="dropout", rules=[])


# ------------------------------------------------------------------ pixel shuffle
@rule("PixelShuffleBackward0", ("self",), ("pixel_unshuffle(grad, upscale_factor)",), ctx=("factor",))
def PixelShuffleBackward0(grad, xp, factor):
    return (pixel_unshuffle(grad, factor) if xp.tensors else _unshuffle(grad, factor),)


@rule("PixelUnshuffleBackward0", ("self",), ("pixel_shuffle(grad, downscale_factor)",), ctx=("factor",))
def PixelUnshuffleBackward0(grad, xp, factor):
    return (pixel_shuffle(grad, factor) if xp.tensors else _shuffle(grad, factor),)


def _shuffle(a, r):
    *lead, c, h, w = a.shape
    oc = c // (r * r)
    x = a.reshape(*lead, oc, r, r, h, w)
    n = len(lead)
    x = x.transpose(*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return np.ascontiguousarray(x).reshape(*lead, oc, h * r, w * r)


def _unshuffle(a, r):
    *lead, c, h, w = a.shape
    x = a.reshape(*lead, c, h // r, r, w // r, r)
    n = len(lead)
    x = x.transpose(*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return np.ascontiguousarray(x).reshape(*lead, c * r * r, h // r, w // r)


def pixel_shuffle(input, upscale_factor):
    a = input._a
    if a.ndim < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{a.ndim} dimension(s)")
    if upscale_factor <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {upscale_factor}")
    c = a.shape[-3]
    if c % (upscale_factor * upscale_factor):
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by "
                           f"{upscale_factor * upscale_factor}")
    return result(_shuffle(a, upscale_factor), PixelShuffleBackward0, (input,), (), upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    a = input._a
    if a.ndim < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{a.ndim} dimension(s)")
    if downscale_factor <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {downscale_factor}")
    h, w = a.shape[-2:]
    if h % downscale_factor:
        raise RuntimeError("pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)="
                           f"{h} is not divisible by {downscale_factor}")
    if w % downscale_factor:
        raise RuntimeError("pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)="
                           f"{w} is not divisible by {downscale_factor}")
    return result(_unshuffle(a, downscale_factor), PixelUnshuffleBackward0, (input,), (), downscale_factor)


declare("pixel_shuffle", pixel_shuffle, method=False, functional=True, rules=[PixelShuffleBackward0])


# ------------------------------------------------------------------ channel shuffle, max unpooling
def _channel_shuffle(a, groups):
    n, c = a.shape[:2]
    return np.ascontiguousarray(a.reshape(n, groups, c // groups, *a.shape[2:]).swapaxes(1, 2)).reshape(a.shape)


@rule("ChannelShuffleBackward0", ("self",), ("channel_shuffle(grad, channels / groups)",), ctx=("groups",))
def ChannelShuffleBackward0(grad, xp, groups):
    if xp.tensors:
        return (channel_shuffle(grad, grad.shape[1] // groups),)
    return (_channel_shuffle(grad, grad.shape[1] // groups),)


def channel_shuffle(input, groups):
    """torch.channel_shuffle / F.channel_shuffle: the channels in `groups` groups, interleaved."""
    a = input._a
    if a.ndim <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {shape_list(a.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    if a.shape[1] % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {a.shape[1]} channels and {groups} "
                           "groups.")
    return result(_channel_shuffle(a, groups), ChannelShuffleBackward0, (input,), (), groups)


declare("channel_shuffle", channel_shuffle, method=False, functional=True, rules=[ChannelShuffleBackward0])


@rule("MaxUnpool2DBackward0", ("self",), ("grad read back at indices",), ctx=("indices",))
def MaxUnpool2DBackward0(grad, xp, indices):
    flat_idx = indices.reshape(*indices.shape[:-2], -1)
    if xp.tensors:      # a gather, so that the gradient stays a function of grad
        return (grad.flatten(-2).gather(-1, _new(flat_idx)).view(*indices.shape),)
    flat = grad.reshape(*grad.shape[:-2], -1)
    return (np.take_along_axis(flat, flat_idx, -1).reshape(indices.shape),)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """torch.nn.functional's _unpool_output_size: the default size, or output_size checked against it."""
    n = len(kernel_size)
    default = [(input._a.shape[-n + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(n)]
    if output_size is None:
        return default
    if len(output_size) == n + 2:
        output_size = output_size[2:]
    if len(output_size) != n:
        raise ValueError(f"output_size should be a sequence containing {n} or {n + 2} elements, but it has a length "
                         f"of '{len(output_size)}'")
    for d in range(n):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between {low} and {high})')
    return list(output_size)


def _max_unpool2d(input, indices, output_size):
    """ATen's max_unpool2d: each value written at its index of an (oh, ow) plane of zeros."""
    a, idx = input._a, indices._a
    oh, ow = output_size
    if idx.size and (idx.min() < 0 or idx.max() >= oh * ow):
        bad = idx[(idx < 0) | (idx >= oh * ow)].flat[-1]     # ATen keeps the last one its loop meets
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size {oh}x{ow})")
    out = np.zeros((*a.shape[:-2], oh * ow), a.dtype)
    np.put_along_axis(out, idx.reshape(*idx.shape[:-2], -1), a.reshape(*a.shape[:-2], -1), -1)
    return result(out.reshape(*a.shape[:-2], oh, ow), MaxUnpool2DBackward0, (input,), (), idx.copy())


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _tuple(kernel_size, 2)
    stride = _tuple(stride, 2) if stride is not None else kernel_size
    return _max_unpool2d(input, indices, _unpool_output_size(input, kernel_size, stride, _tuple(padding, 2),
                                                             output_size))


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """PyTorch's composite: max_unpool2d over a trailing dim of 1, squeezed."""
    kernel_size = _tuple(kernel_size, 1)
    stride = _tuple(stride, 1) if stride is not None else kernel_size
    size = _unpool_output_size(input, kernel_size, stride, _tuple(padding, 1), output_size) + [1]
    return _max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), size).squeeze(-1)


declare("max_unpool1d", max_unpool1d, method=False, function=False, functional=True, rules=[])
declare("max_unpool2d", max_unpool2d, method=False, function=False, functional=True, rules=[MaxUnpool2DBackward0])
declare("pixel_unshuffle", pixel_unshuffle, method=False, functional=True, rules=[PixelUnshuffleBackward0])


# ------------------------------------------------------------------ 1-d pooling, max pooling with indices
def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    if input._a.ndim not in (2, 3):
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{shape_list(input._a.shape)}")
    k = _tuple(kernel_size, 1)[0]
    s = k if stride is None or stride == [] or stride == () else _tuple(stride, 1)[0]
    out, idx = max_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _tuple(padding, 1)[0]),
                          (1, _tuple(dilation, 1)[0]), ceil_mode, True)
    return out.squeeze(-2), _new(idx._a.squeeze(-2))


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    out, idx = max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, idx) if return_indices else out


def _functional_max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                           return_indices=False):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def _torch_max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)


def _torch_max_pool1d_with_indices(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)


declare("max_pool1d", max_pool1d, method=False, torch_forward=_torch_max_pool1d, functional=_functional_max_pool1d,
        rules=[])
declare("max_pool1d_with_indices", max_pool1d_with_indices, method=False,
        torch_forward=_torch_max_pool1d_with_indices, functional=True, returns_tensor=False, rules=[])


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


declare("max_pool2d_with_indices", max_pool2d_with_indices, method=False, function=False, functional=True,
        returns_tensor=False, rules=[])


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    a = input._a
    if a.ndim not in (2, 3):
        raise RuntimeError(f"avg_pool1d() Expected 2D or 3D input tensor, but got {shape_list(a.shape)}")
    k = _tuple(kernel_size, 1)[0]
    s = k if stride is None or stride == [] or stride == () else _tuple(stride, 1)[0]
    out = avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, _tuple(padding, 1)[0]), ceil_mode, count_include_pad)
    return out.squeeze(-2)


declare("avg_pool1d", avg_pool1d, method=False, functional=True, rules=[])


# adaptive max pooling
@rule("AdaptiveMaxPool2DBackward0", ("self",), ("grad scattered to the max of each window",),
      saved=("self", "indices"))
def AdaptiveMaxPool2DBackward0(grad, xp, self, indices):
    if xp.tensors:
        return (max_pool2d_with_indices_backward(grad, self, indices),)
    return (_max_pool_bw(grad, self, indices),)


def _adaptive_windows(size, out):
    return [(i * size // out, -(-(i + 1) * size // out)) for i in range(out)]


def adaptive_max_pool2d(input, output_size, return_indices=False):
    x = input._a
    if x.ndim not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: {shape_list(x.shape)}")
    sizes = (output_size, output_size) if isinstance(output_size, int) or output_size is None else tuple(output_size)
    out = tuple(x.shape[-2 + k] if s is None else s for k, s in enumerate(sizes))
    H, W = x.shape[-2:]
    res = np.empty(x.shape[:-2] + out, x.dtype)
    idx = np.empty(x.shape[:-2] + out, np.int64)
    flat = x.reshape(x.shape[:-2] + (H * W,))
    for i, (h0, h1) in enumerate(_adaptive_windows(H, out[0])):
        for j, (w0, w1) in enumerate(_adaptive_windows(W, out[1])):
            cells = (np.arange(h0, h1)[:, None] * W + np.arange(w0, w1)[None]).reshape(-1)
            vals = flat[..., cells]
            nan = np.isnan(vals)
            pick = np.where(nan.any(-1), nan.argmax(-1), vals.argmax(-1))
            res[..., i, j] = np.take_along_axis(vals, pick[..., None], -1)[..., 0]
            idx[..., i, j] = cells[pick]
    indices = _new(idx)
    t = result(res, AdaptiveMaxPool2DBackward0, (input,), (input, indices))
    return (t, indices) if return_indices else t


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool2d(input, output_size, True)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    a = input._a
    if a.ndim not in (2, 3):
        raise RuntimeError(f"adaptive_max_pool1d() Expected 2D or 3D input tensor, but got {shape_list(a.shape)}")
    size = output_size[0] if isinstance(output_size, (tuple, list)) else output_size
    out, idx = adaptive_max_pool2d(input.unsqueeze(-2), (1, size), True)
    out, idx = out.squeeze(-2), _new(idx._a.squeeze(-2))
    return (out, idx) if return_indices else out


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool1d(input, output_size, True)


def _torch_adaptive_max_pool1d(input, output_size):
    return adaptive_max_pool1d(input, output_size, True)


declare("adaptive_max_pool2d", adaptive_max_pool2d, method=False, function=False, functional=True,
        rules=[AdaptiveMaxPool2DBackward0])
declare("adaptive_max_pool2d_with_indices", adaptive_max_pool2d_with_indices, method=False, function=False,
        functional=True, returns_tensor=False, rules=[])
declare("adaptive_max_pool1d", adaptive_max_pool1d, method=False, torch_forward=_torch_adaptive_max_pool1d,
        functional=True, rules=[])
declare("adaptive_max_pool1d_with_indices", adaptive_max_pool1d_with_indices, method=False, function=False,
        functional=True, returns_tensor=False, rules=[])


# ------------------------------------------------------------------ group norm, instance norm
@rule("NativeGroupNormBackward0", ("input", "weight", "bias"),
      ("(grad * weight - mean(grad * weight) - xhat * mean(grad * weight * xhat)) * rstd per group",
       "sum(grad * xhat)", "sum(grad)"),
      saved=("input", "weight"), ctx=("groups", "mean", "rstd", "eps"), optional=("weight",))
def NativeGroupNormBackward0(grad, xp, node, input, weight, groups, mean, rstd, eps):
    mask = tuple(e is not None for e in node.edges)
    if xp.tensors:
        return _group_norm_graph(grad, input, weight, groups, eps, mask)
    return _group_norm_bw(grad, input, weight, groups, mean, rstd, mask)


def _grouped(x, groups):
    return x.reshape(x.shape[0], groups, -1)


def _channel_view(w, x):
    return w.reshape((1, x.shape[1]) + (1,) * (x.ndim - 2))


def _group_norm_f32(x, *params):
    """float32 or float64 input and parameters of its dtype in a layout PyTorch's contiguous
    kernel takes (4-d and 5-d inputs not C-contiguous may be channels-last there): its bits
    (kernels.group_norm)."""
    return (x.dtype in (np.float32, np.float64) and x.size > 0 and (x.ndim < 4 or x.flags.c_contiguous)
            and all(p is None or p.dtype == x.dtype for p in params))


def _group_norm_bw(grad, input, weight, groups, mean, rstd, mask):
    if _group_norm_f32(input, grad, weight) and mean.dtype == input.dtype:
        return kernels.group_norm_backward(grad, input, mean, rstd, weight, groups, mask)
    x, g = _f64(input), _f64(grad)
    xhat = (_grouped(x, groups) - mean) * rstd
    xhat = xhat.reshape(x.shape)
    axes = (0,) + tuple(range(2, x.ndim))
    gx = gw = gb = None
    if mask[1]:
        gw = _out((g * xhat).sum(axis=axes), grad)
    if mask[2]:
        gb = _out(g.sum(axis=axes), grad)
    if mask[0]:
        gy = g if weight is None else g * _channel_view(_f64(weight), x)
        gyg, xg = _grouped(gy, groups), _grouped(xhat, groups)
        d = (gyg - gyg.mean(-1, keepdims=True) - xg * (gyg * xg).mean(-1, keepdims=True)) * rstd
        gx = _out(d.reshape(x.shape), grad)
    return (gx, gw, gb)


def _group_norm_graph(g, x, w, groups, eps, mask):
    """The same gradients composed of tensor ops (create_graph)."""
    shape = x.shape
    n = shape[0]
    xg = x.reshape(n, groups, -1)
    mu = xg.mean(-1, keepdim=True)
    var = ((xg - mu) * (xg - mu)).mean(-1, keepdim=True)
    r = (var + eps).rsqrt()
    xhat = ((xg - mu) * r).reshape(shape)
    axes = [0] + list(range(2, len(shape)))
    gx = gw = gb = None
    if mask[1]:
        gw = (g * xhat).sum(axes)
    if mask[2]:
        gb = g.sum(axes)
    if mask[0]:
        gy = g if w is None else g * w.reshape((1, shape[1]) + (1,) * (len(shape) - 2))
        gyg, xh = gy.reshape(n, groups, -1), xhat.reshape(n, groups, -1)
        gx = ((gyg - gyg.mean(-1, keepdim=True) - xh * (gyg * xh).mean(-1, keepdim=True)) * r).reshape(shape)
    return (gx, gw, gb)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    x = _float_input(input, "group_norm")
    if x.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {x.ndim}")
    c = x.shape[1]
    if c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {shape_list(x.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t._a.ndim != 1 or t._a.size != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {shape_list(t._a.shape)} and input of shape "
                               f"{shape_list(x.shape)}")
    if _group_norm_f32(x, *(None if t is None else t._a for t in (weight, bias))):
        y, mean, rstd = kernels.group_norm(x, None if weight is None else weight._a,
                                           None if bias is None else bias._a, num_groups, eps)
        mean, rstd = mean.reshape(x.shape[0], num_groups, 1), rstd.reshape(x.shape[0], num_groups, 1)
        return result(y, NativeGroupNormBackward0, (input, weight, bias), (input, weight),
                      (num_groups, mean, rstd, eps))
    x64 = _grouped(_f64(x), num_groups)
    mean = x64.mean(-1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(-1, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    y = ((x64 - mean) * rstd).reshape(x.shape)
    if weight is not None:
        y = y * _channel_view(_f64(weight._a), x)
    if bias is not None:
        y = y + _channel_view(_f64(bias._a), x)
    return result(_out(y, x), NativeGroupNormBackward0, (input, weight, bias), (input, weight),
                  (num_groups, mean, rstd, eps))


def _functional_group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    return group_norm(input, num_groups, weight, bias, eps)


declare("group_norm", group_norm, method=False, functional=_functional_group_norm, rules=[NativeGroupNormBackward0])


def instance_norm(input, weight=None, bias=None, running_mean=None, running_var=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5, cudnn_enabled=False):
    """ATen's instance_norm: batch_norm over the input viewed as (1, N * C, ...)."""
    a = input._a
    n, c = a.shape[0], a.shape[1]
    shape = (1, n * c) + a.shape[2:]
    w = None if weight is None else weight.repeat(n)
    b = None if bias is None else bias.repeat(n)
    rm = None if running_mean is None else _new(np.tile(running_mean._a, n))
    rv = None if running_var is None else _new(np.tile(running_var._a, n))
    out = batch_norm(input.contiguous().view(*shape), rm, rv, w, b, use_input_stats, momentum, eps)
    if running_mean is not None:
        running_mean._a[...] = rm._a.reshape(n, c).mean(0).astype(running_mean._a.dtype)
        running_mean._ver[0] += 1
    if running_var is not None:
        running_var._a[...] = rv._a.reshape(n, c).mean(0).astype(running_var._a.dtype)
        running_var._ver[0] += 1
    return out.view(*a.shape)


def _functional_instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,
                              use_input_stats=True, momentum=0.1, eps=1e-5):
    if use_input_stats:
        size = input.size()
        n = 1
        for s in size[2:]:
            n *= s
        if n == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {size!r}")
    return instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps)


declare("instance_norm", instance_norm, method=False, functional=_functional_instance_norm, rules=[])


# ------------------------------------------------------------------ embedding, cosine similarity
def _torch_embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return embedding(indices, weight, None if padding_idx == -1 else padding_idx)


declare("torch_embedding", _torch_embedding, method=False, function="embedding", rules=[])


_BAG_MODES = {"sum": 0, "mean": 1, "max": 2}


@rule("EmbeddingBagBackward0", ("weight", "per_sample_weights"),
      ("grad of each bag added to its rows (times 1/bag size for mean, times the sample's weight; max: the "
       "chosen rows)", "grad of the bag . the row"),
      saved=("weight", "per_sample_weights"), ctx=("indices", "bags", "sizes", "max_indices", "mode", "padding_idx"),
      optional=("per_sample_weights",))
def EmbeddingBagBackward0(grad, xp, weight, per_sample_weights, indices, bags, sizes, max_indices, mode, padding_idx):
    g = xp.raw(grad)
    w = xp.raw(weight)
    gw = np.zeros(w.shape, w.dtype)
    if mode == 2:       # ATen's _embedding_bag_dense_backward_cpu_max: each chosen row gets its bag's grad
        for b in range(g.shape[0]):
            for j in range(g.shape[1]):
                if max_indices[b, j] >= 0:
                    gw[max_indices[b, j], j] += g[b, j]
    else:
        psw = None if per_sample_weights is None else xp.raw(per_sample_weights)
        # ATen walks the indices sorted by value, adding scale * grad row (cpublas axpy; a single rounding)
        for k in np.argsort(indices, kind="stable"):
            i, b = indices[k], bags[k]
            if i == padding_idx or b < 0:
                continue
            scale = 1.0 if psw is None else float(psw[k])
            if mode == 1 and sizes[b]:
                scale /= sizes[b]
            gw[i] = (gw[i].astype(np.float64) + float(w.dtype.type(scale)) * g[b].astype(np.float64)).astype(w.dtype)
    gp = None
    if per_sample_weights is not None:     # a BLAS dot per sample (its last bits may differ from MKL's)
        last = g.shape[0] - 1       # ATen's offset2bag puts samples past the last bag in it
        gp = np.array([0.0 if i == padding_idx else np.dot(g[b if b >= 0 else last].astype(np.float64),
                                                           w[i].astype(np.float64))
                       for i, b in zip(indices, bags)]).astype(w.dtype)
    if not xp.tensors:
        return (gw, gp)
    # under create_graph: PyTorch's nodes for _embedding_bag_backward and the per-sample-weights backward,
    # neither of which has a derivative of its own
    gw = result(gw, EmbeddingBagBackwardBackward0, (grad, per_sample_weights))
    if gp is not None:
        gp = result(gp, NotImplemented_, tuple(t for t in (grad, weight) if t.requires_grad), (),
                    "aten::_embedding_bag_per_sample_weights_backward")
    return (gw, gp)


@rule("EmbeddingBagBackwardBackward0", ("grad", "per_sample_weights"), ("not implemented", "not implemented"))
def EmbeddingBagBackwardBackward0(grad, xp):
    raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


def _embedding_bag(weight, input, offsets, scale_grad_by_freq=False, mode=0, sparse=False, per_sample_weights=None,
                   include_last_offset=False, padding_idx=-1):
    """ATen's embedding_bag on CPU: each bag sums its rows in order (per-sample weights with a fused
    multiply-add), mean divides the sum by the bag's size, max keeps the first largest row per column;
    rows at padding_idx are skipped and not counted."""
    idx = input._a
    if idx.dtype.kind not in "iu":
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{D.from_np(idx.dtype).legacy} instead (while checking "
                           "arguments for embedding_bag)")
    w = weight._a
    n = w.shape[0]
    for k, i in enumerate(idx.tolist()):
        if not 0 <= i < n:
            raise RuntimeError(f"Index {k} of input takes value {i} which is not in the valid range [0, {n})")
    starts = offsets._a.tolist()
    if starts and starts[0] != 0:
        raise RuntimeError("offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {starts[0]}\n[ torch.LongTensor{{}} ]")
    if starts and starts[-1] > idx.size:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {idx.size} but got offsets[-1] of "
                           f"{starts[-1]}")
    ends = starts[1:] + [idx.size]
    if include_last_offset:
        starts, ends = starts[:-1], starts[1:]
    psw = None if per_sample_weights is None else per_sample_weights._a
    out = np.zeros((len(starts), w.shape[1]), w.dtype)
    max_indices = np.full(out.shape, -1, np.int64) if mode == 2 else None
    bags = np.full(idx.size, -1, np.int64)      # -1: past the last bag (include_last_offset)
    sizes = []
    for b, (s, e) in enumerate(zip(starts, ends)):
        bags[s:e] = b
        keep = [k for k in range(s, e) if idx[k] != padding_idx]
        sizes.append(len(keep))
        if mode == 2:
            for k in keep:
                row = w[idx[k]]
                better = (max_indices[b] < 0) | (row > out[b])
                out[b] = np.where(better, row, out[b])
                max_indices[b] = np.where(better, idx[k], max_indices[b])
            continue
        acc = np.zeros(w.shape[1], np.float64 if psw is not None else w.dtype)
        for k in keep:
            if psw is None:
                acc = acc + w[idx[k]]
            else:
                acc = (acc + float(psw[k]) * w[idx[k]].astype(np.float64)).astype(w.dtype).astype(np.float64)
        out[b] = acc
        if mode == 1 and keep:
            out[b] = out[b] / w.dtype.type(len(keep))
    t = result(out, EmbeddingBagBackward0, (weight, per_sample_weights), (weight, per_sample_weights),
               (idx.copy(), bags, sizes, max_indices, mode, padding_idx))
    return t


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """torch.nn.functional.embedding_bag: its argument checks, then ATen's kernel (the first of the four
    outputs torch.embedding_bag returns)."""
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type "
                             + ("<class 'torch.Tensor'>" if type(offsets) is Tensor else f"<class '{pytype(offsets)}'>"))
        step = input.size(1)
        offsets = _new(np.arange(0, input.numel(), step, dtype=np.int64) if step else
                       np.zeros(input.size(0), np.int64))
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in _BAG_MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max" and scale_grad_by_freq:
        raise ValueError("max mode does not support scaling the gradient by the frequency")
    if mode == "max" and sparse:
        raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        raise NotImplementedError("embedding_bag(max_norm=...) is not available in gradrepl")
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding_bag(scale_grad_by_freq=True or sparse=True) is not available in gradrepl")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    return _embedding_bag(weight, input, offsets, False, _BAG_MODES[mode], False, per_sample_weights,
                          include_last_offset, -1 if padding_idx is None else padding_idx)


declare("embedding_bag", embedding_bag, method=False, function=False, functional=True,
        rules=[EmbeddingBagBackward0, EmbeddingBagBackwardBackward0])


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    n1 = x1.norm(2, dim, keepdim=True).clone()     # cloned: clamped in place below
    n2 = x2.norm(2, dim, keepdim=True).clone()
    prev, GRAD[0] = GRAD[0], False      # ATen clamps in place under NoGradGuard
    try:
        n1.clamp_(min=eps)
        n2.clamp_(min=eps)
    finally:
        GRAD[0] = prev
    return ((x1 / n1) * (x2 / n2)).sum(dim)


declare("cosine_similarity", cosine_similarity, method=False, functional=True, rules=[])


# ------------------------------------------------------------------ prelu, rrelu
@rule("PreluKernelBackward0", ("self", "weight"),
      ("grad where self > 0, else grad * weight", "sum of grad * self where self <= 0"),
      saved=("self", "weight"))
def PreluKernelBackward0(grad, xp, node, self, weight):
    s = xp.raw(self)
    pos = xp.mask(s > 0, grad)
    shape = _prelu_shape(xp.raw(weight).size, s.ndim)
    w = xp.reshape(weight, shape)
    g_self = g_w = None
    if node.edges[0] is not None:
        g_self = xp.depends(grad * pos + grad * w * (1 - pos), self)
    if node.edges[1] is not None:
        g_w = xp.reshape(xp.sum_to(grad * self * (1 - pos), shape), xp.raw(weight).shape)
    return (g_self, g_w)


def _prelu_shape(n, ndim):
    """The weight's shape broadcast along dim 1 of the input."""
    if n == 1 or ndim < 2:
        return (1,) * ndim
    return (1, n) + (1,) * (ndim - 2)


def prelu(self, weight):
    x = _float_input(self, "prelu")
    w = weight._a
    if w.ndim > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {w.ndim}")
    channels = 1 if x.ndim < 2 else x.shape[1]
    if w.size != 1 and w.size != channels:
        raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                           f"{w.size} and channel size = {channels}.")
    wb = w.reshape(_prelu_shape(w.size, x.ndim))
    out = np.where(x > 0, x, x * wb).astype(x.dtype, copy=False)
    return result(out, PreluKernelBackward0, (self, weight), (self, weight))


declare("prelu", prelu, functional=True, rules=[PreluKernelBackward0])


@rule("RreluWithNoiseBackward0", ("self",), ("grad * noise (training), grad * (lower + upper) / 2 where self <= 0",),
      saved=("self", "noise"), ctx=("lower", "upper", "training"))
def RreluWithNoiseBackward0(grad, xp, self, noise, lower, upper, training):
    s = xp.raw(self)
    if training:
        return (xp.depends(grad * xp.constant(xp.raw(noise)), self),)
    neg = (lower + upper) / 2
    factor = np.where(s > 0, s.dtype.type(1), s.dtype.type(neg)).astype(s.dtype)
    return (xp.depends(grad * xp.constant(factor), self),)


# rrelu_with_noise_ (in place): the same derivative under its own node name
RreluWithNoiseBackward1 = rule("RreluWithNoiseBackward1", ("self",), RreluWithNoiseBackward0.formulas,
                               saved=("self", "noise"), ctx=("lower", "upper", "training"))(RreluWithNoiseBackward0.fn)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    if inplace:
        return _inplace(input, None, lambda s, _other: _rrelu(s, lower, upper, training, RreluWithNoiseBackward1))
    return _rrelu(input, lower, upper, training, RreluWithNoiseBackward0)


def _rrelu(input, lower, upper, training, spec):
    x = _float_input(input, "rrelu_with_noise")
    if training:
        noise = np.ones_like(x)
        neg = x <= 0
        count = int(neg.sum())
        draws = rng.default_generator.uniform((count,), lower, upper, np.float64).astype(x.dtype)
        noise[neg] = draws
        out = (x * noise).astype(x.dtype, copy=False)
    else:
        noise = np.ones_like(x)
        slope = x.dtype.type((lower + upper) / 2)
        out = np.where(x <= 0, x * slope, x).astype(x.dtype, copy=False)
    return result(out, spec, (input,), (input, _new(noise)), (lower, upper, training))


def _torch_rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return rrelu(input, lower, upper, training)


declare("rrelu", rrelu, method=False, torch_forward=_torch_rrelu, functional=True,
        rules=[RreluWithNoiseBackward0, RreluWithNoiseBackward1])


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    """F.rrelu_ / torch.rrelu_: rrelu in place."""
    return rrelu(input, lower, upper, training, inplace=True)


declare("rrelu_", rrelu_, method=False, functional=True, rules=[])


# ------------------------------------------------------------------ upsampling (F.interpolate's kernels)
_UPSAMPLE_NAMES = {("nearest", 1): "UpsampleNearest1D", ("nearest", 2): "UpsampleNearest2D",
                   ("nearest", 3): "UpsampleNearest3D", ("nearest-exact", 1): "UpsampleNearestExact1D",
                   ("nearest-exact", 2): "UpsampleNearestExact2D", ("nearest-exact", 3): "UpsampleNearestExact3D",
                   ("linear", 1): "UpsampleLinear1D", ("linear", 2): "UpsampleBilinear2D",
                   ("linear", 3): "UpsampleTrilinear3D"}


def _f32(v):
    return np.float32(v)


def _nearest_index(in_size, out_size, scale, exact):
    """ATen's nearest_idx / nearest_exact_idx: the source index of each output index."""
    o = np.arange(out_size)
    if not exact and out_size == in_size:
        return o
    if not exact and out_size == 2 * in_size:
        return o >> 1
    s = _f32(1.0 / scale) if scale is not None and scale > 0 else _f32(in_size) / _f32(out_size)
    if exact:
        src = np.floor((o + 0.5) * np.float64(s)).astype(np.int64)
    else:
        src = np.floor(o.astype(np.float32) * s).astype(np.int64)
    return np.minimum(src, in_size - 1)


def _linear_weights(in_size, out_size, align_corners, scale, dtype=np.float32):
    """(index0, index1, lambda0, lambda1) per output index, in the kernel's opmath type (float32
    for float32, with the source index's multiply-add fused; float64 for float64)."""
    ft = np.float64 if dtype == np.float64 else np.float32
    o = np.arange(out_size)
    if out_size == in_size:
        return o, o, np.ones(out_size, ft), np.zeros(out_size, ft)
    if align_corners:
        ratio = ft(in_size - 1) / ft(out_size - 1) if out_size > 1 else ft(0)
        real = (o.astype(ft) * ratio).astype(ft)
    else:
        ratio = ft(1.0 / scale) if scale is not None and scale > 0 else ft(in_size) / ft(out_size)
        real = (np.float64(ratio) * (o.astype(ft) + ft(0.5)).astype(np.float64) - 0.5).astype(ft)
        real = np.where(real < 0, ft(0), real)
    i0 = np.minimum(np.floor(real).astype(np.int64), in_size - 1)
    lam1 = np.clip((real - i0.astype(ft)).astype(ft), ft(0), ft(1))
    i1 = i0 + (i0 < in_size - 1)
    return i0, i1, (ft(1) - lam1).astype(ft), lam1


def _fma(a, b, c):
    if a.dtype == np.float32:
        return (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(np.float32)
    return a * b + c


def _take(x, axis_from_end, idx):
    return np.take(x, idx, axis=x.ndim - axis_from_end)


def _upsample_arrays(x, mode, out, align_corners, scales):
    n = len(out)
    ins = x.shape[-n:]
    if mode != "linear":
        res = x
        for d in range(n):
            res = _take(res, n - d, _nearest_index(ins[d], out[d], scales[d], mode == "nearest-exact"))
        return np.ascontiguousarray(res)
    w = [_linear_weights(ins[d], out[d], align_corners, scales[d], x.dtype) for d in range(n)]
    dt = x.dtype

    def lam(d, k):
        shape = [1] * n
        shape[d] = out[d]
        return w[d][2 + k].astype(dt).reshape(shape)
    if n == 1:
        i0, i1, _, _ = w[0]
        return _fma(x[..., i0], lam(0, 0), x[..., i1] * lam(0, 1))
    if n == 2:
        rows = [_take(x, 2, w[0][k]) for k in (0, 1)]
        x00, x01 = (_take(rows[0], 1, w[1][k]) for k in (0, 1))
        x10, x11 = (_take(rows[1], 1, w[1][k]) for k in (0, 1))
        h0, h1, w0, w1 = lam(0, 0), lam(0, 1), lam(1, 0), lam(1, 1)
        return _fma(x11, h1 * w1, _fma(x10, h1 * w0, _fma(x01, h0 * w1, x00 * (h0 * w0))))
    res = _f64(x)
    for d in range(n):
        i0, i1, l0, l1 = w[d]
        res = _take(res, n - d, i0) * _f64(lam(d, 0)) + _take(res, n - d, i1) * _f64(lam(d, 1))
    return res.astype(dt)


def _upsample_grad(g, in_shape, mode, align_corners, scales):
    """The input's gradient: each output's gradient added, output by output, into the inputs
    it was read from (times its weight)."""
    n = g.ndim - 2 if g.ndim >= 3 else 1
    out = g.shape[-n:]
    ins = in_shape[-n:]
    per_dim = []
    for d in range(n):
        if mode == "linear":
            i0, i1, l0, l1 = _linear_weights(ins[d], out[d], align_corners, scales[d], g.dtype)
            per_dim.append(((i0, l0), (i1, l1)))
        else:
            per_dim.append(((_nearest_index(ins[d], out[d], scales[d], mode == "nearest-exact"),
                             np.ones(out[d], g.dtype)),))
    # every (output position, contribution) pair, in the kernel's order
    idx = np.zeros(out + (1,), np.int64)
    wts = np.ones(out + (1,), g.dtype)
    stride = 1
    for d in reversed(range(n)):
        shape = [1] * n + [1]
        shape[d] = out[d]
        parts_i = [i.reshape(shape) * stride for i, _ in per_dim[d]]
        parts_w = [w.reshape(shape) for _, w in per_dim[d]]
        idx = np.concatenate([p + idx for p in parts_i], -1)     # this dim's choice outermost
        wts = np.concatenate([p * wts for p in parts_w], -1)
        stride *= ins[d]
    lead = int(np.prod(g.shape[:-n]))
    k = idx.shape[-1]
    gf = g.reshape(lead, -1)
    gi = np.zeros((lead, int(np.prod(ins))), g.dtype)
    if mode == "linear" and g.dtype == np.float32:    # grad_input[i] += weight * grad, fused, in order
        acc = gi.T.astype(np.float64)
        flat_w = wts.reshape(-1, k).astype(np.float64)
        flat_i = idx.reshape(-1, k)
        g64 = gf.T.astype(np.float64)
        for p in range(flat_i.shape[0]):
            for j in range(k):
                at = flat_i[p, j]
                acc[at] = (acc[at] + flat_w[p, j] * g64[p]).astype(np.float32)
        return acc.T.astype(np.float32).reshape(tuple(g.shape[:-n]) + tuple(ins))
    vals = (np.repeat(gf, k, axis=1) * wts.reshape(1, -1).astype(g.dtype)).astype(g.dtype)
    np.add.at(gi, (slice(None), idx.reshape(-1)), vals)
    return gi.reshape(tuple(g.shape[:-n]) + tuple(ins))


def _upsample_rules(mode, n):
    name = _UPSAMPLE_NAMES[mode, n]

    @rule(name + "BackwardBackward0", ("grad_output",), (f"{name.lower()}(grad)",),
          ctx=("in_shape", "mode", "align_corners", "scales"), key=name + "BackwardBackward0")
    def backward_backward(grad, xp, in_shape, mode, align_corners, scales):
        out = tuple(xp.raw(grad).shape[-len(scales):])
        return (_upsample_arrays(grad, mode, out, align_corners, scales) if not xp.tensors else
                _upsample(grad, mode, out, align_corners, scales),)

    @rule(name + "Backward0", ("self",), (f"{name.lower()}_backward(grad)",),
          ctx=("in_shape", "mode", "align_corners", "scales"), key=name + "Backward0")
    def backward(grad, xp, in_shape, mode, align_corners, scales):
        if xp.tensors:
            return (upsample_backward(grad, in_shape, mode, align_corners, scales),)
        return (_upsample_grad(grad, in_shape, mode, align_corners, scales),)
    return backward, backward_backward


_UPSAMPLE_RULES = {key: _upsample_rules(*key) for key in _UPSAMPLE_NAMES}


def upsample_backward(grad_output, in_shape, mode, align_corners, scales):
    spec = _UPSAMPLE_RULES[mode, len(scales)][1]
    return result(_upsample_grad(grad_output._a, in_shape, mode, align_corners, scales), spec, (grad_output,), (),
                  (in_shape, mode, align_corners, scales))


declare("upsample_backward", upsample_backward, method=False, function=False,
        rules=[r[1] for r in _UPSAMPLE_RULES.values()])


def _upsample(input, mode, out, align_corners, scales):
    x = input._a
    res = _upsample_arrays(x, mode, tuple(out), align_corners, tuple(scales))
    spec = _UPSAMPLE_RULES[mode, len(out)][0]
    return result(res.astype(x.dtype, copy=False), spec, (input,), (), (x.shape, mode, align_corners, tuple(scales)))


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """F.interpolate's kernels (upsample_nearest1d ... upsample_trilinear3d): output sizes
    from `size`, or floor(input size * scale_factor) with the scale passed on."""
    x = _float_input(input, "upsample") if mode == "linear" else input._a
    n = x.ndim - 2
    if size is not None:
        out = tuple(int(s) for s in size)
        scales = (None,) * n
    else:
        scales = tuple(float(s) for s in scale_factor)
        out = tuple(int(math.floor(float(x.shape[2 + d]) * scales[d])) for d in range(n))
    if any(o <= 0 for o in out) or any(s <= 0 for s in x.shape[2:]):
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input "
                           f"({', '.join(map(str, x.shape[2:]))}) and output ({', '.join(map(str, out))})")
    return _upsample(input, mode, out, bool(align_corners), scales)


declare("upsample", upsample, method=False, function=False, rules=[r[0] for r in _UPSAMPLE_RULES.values()])


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    """torch/nn/functional.py's interpolate: its checks, then the upsample kernel of the mode."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {list(input.shape[2:])} and output size of {size}. "
                                 "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                                 "(o1, o2, ...,oK) format.")
            output_size = size
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got "
                                 f"input with spatial dimensions of {list(input.shape[2:])} and scale_factor of "
                                 f"shape {scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                                 "format and scale_factor in (s1, s2, ...,sK) format.")
            scale_factors = scale_factor
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        output_size = [int(input.size(i + 2) * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")
    if antialias:
        raise NotImplementedError("F.interpolate(antialias=True) is not available in gradrepl")
    if mode in ("nearest", "nearest-exact") and input.dim() in (3, 4, 5):
        return upsample(input, output_size, scale_factors, mode)
    if mode == "area" and input.dim() in (3, 4):
        pool = adaptive_avg_pool1d if input.dim() == 3 else adaptive_avg_pool2d
        return pool(input, output_size)
    if (mode, input.dim()) in (("linear", 3), ("bilinear", 4), ("trilinear", 5)):
        return upsample(input, output_size, scale_factors, "linear", align_corners)
    if mode == "bicubic" and input.dim() == 4 or mode == "area" and input.dim() == 5:
        raise NotImplementedError(f"F.interpolate(mode={mode!r}) is not available in gradrepl")
    wants = {"linear": "3D", "bilinear": "4D", "trilinear": "5D"}
    if mode in wants and input.dim() in (3, 4, 5):
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {wants[mode]} input")
    raise NotImplementedError("Input Error: Only 3D, 4D and 5D input Tensors supported"
                              f" (got {input.dim()}D) for the modes: nearest | linear | bilinear | bicubic | trilinear "
                              f"| lanczos | area | nearest-exact (got {mode})")


declare("interpolate", interpolate, method=False, function=False, functional=True, rules=[])


# ------------------------------------------------------------------ losses ATen composes
_REDUCTIONS = {0: "none", 1: "mean", 2: "sum", "none": "none", "mean": "mean", "sum": "sum"}


def _apply_reduction(loss, reduction):
    reduction = _REDUCTIONS[reduction]
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def kl_div(input, target, reduction=0, log_target=False):
    """ATen's kl_div: xlogy(target, target) - target * input (exp(target) * (target - input) for a
    log target), then the reduction."""
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = target.xlogy(target) - target * input
    return _apply_reduction(loss, reduction)


declare("kl_div", kl_div, method=False, rules=[])


def poisson_nll_loss(input, target, log_input=True, full=False, eps=1e-8, reduction=1):
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + (target * (2 * math.pi)).log() * 0.5
        loss = loss + stirling.masked_fill(target <= 1, 0)
    return _apply_reduction(loss, reduction)


def _functional_poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                                 reduction="mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not a valid value for reduction")
    return poisson_nll_loss(input, target, log_input, full, eps, reduction)


def _legacy_reduction(size_average, reduce, reduction):
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    return "mean" if size_average and reduce else ("sum" if reduce else "none")


declare("poisson_nll_loss", poisson_nll_loss, method=False, functional=_functional_poisson_nll_loss, rules=[])


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    t = target._a
    if t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1._a.ndim != input2._a.ndim:
        raise RuntimeError(f"cosine_embedding_loss(): input1 and input2 must have the same number of dimensions, "
                           f"but got {input1._a.ndim} and {input2._a.ndim}")
    dim = input1._a.ndim - 1 if input1._a.ndim else 0
    if t.ndim == 0 and input1._a.ndim > 1 or t.ndim == 1 and input1._a.ndim != 2:
        raise RuntimeError(f"{t.ndim}D target tensor expects {t.ndim + 1}D input tensors, but found inputs with sizes "
                           f"{shape_list(input1._a.shape)} and {shape_list(input2._a.shape)}.")
    prod_sum = (input1 * input2).sum(dim)
    mag1 = (input1 * input1).sum(dim) + 1e-12
    mag2 = (input2 * input2).sum(dim) + 1e-12
    denom = (mag1 * mag2).sqrt_()
    cos = prod_sum / denom
    zeros = _new(np.zeros(cos._a.shape, cos._a.dtype))
    pos = 1 - cos
    neg = (cos - margin).clamp_min_(0)
    out = _where(target == 1, pos, zeros) + _where(target == -1, neg, zeros)
    return _apply_reduction(out, reduction)


def _where(cond, a, b):
    return a.where(cond, b)


def _functional_cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None,
                                      reduction="mean"):
    return cosine_embedding_loss(input1, input2, target, margin, _legacy_reduction(size_average, reduce, reduction))


declare("cosine_embedding_loss", cosine_embedding_loss, method=False, functional=_functional_cosine_embedding_loss,
        rules=[])


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-6, swap=False, reduction=1):
    dist_pos = pairwise_distance(anchor, positive, p, eps)
    dist_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = dist_neg.minimum(pairwise_distance(positive, negative, p, eps))
    return _apply_reduction((margin + dist_pos - dist_neg).clamp_min(0), reduction)


def _functional_triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False,
                                    size_average=None, reduce=None, reduction="mean"):
    a, pos, neg = anchor._a.ndim, positive._a.ndim, negative._a.ndim
    if not (a == pos == neg):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a}D, positive {pos}D, and negative {neg}D inputs")
    return triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                               _legacy_reduction(size_average, reduce, reduction))


declare("triplet_margin_loss", triplet_margin_loss, method=False, functional=_functional_triplet_margin_loss,
        rules=[])


# soft margin, multi margin, multilabel margin: kernels of their own
@rule("SoftMarginLossBackward0", ("self", "target"), ("-target * sigmoid(-target * self) * grad (/ n for mean)",
                                                      "-self * sigmoid(-target * self) * grad (/ n for mean)"),
      saved=("self", "target"), ctx=("reduction",))
def SoftMarginLossBackward0(grad, xp, node, self, target, reduction):
    n = xp.numel(self) if reduction == "mean" else 1
    z = xp.exp(-target * self)
    common = grad * (z / (z + 1))
    if n != 1:
        common = common / n
    e = node.edges
    return (None if e[0] is None else -target * common, None if e[1] is None else -self * common)


def soft_margin_loss(input, target, reduction=1):
    x, y = _f64(input._a), _f64(target._a)
    losses = np.log1p(np.exp(-x * y))
    out = _reduce_array(losses, _REDUCTIONS[reduction], input._a)
    return result(out, SoftMarginLossBackward0, (input, target), (input, target), _REDUCTIONS[reduction])


def _reduce_array(losses, reduction, like):
    if reduction == "none":
        return losses.astype(like.dtype)
    total = losses.astype(like.dtype).sum(dtype=like.dtype)
    if reduction == "sum":
        return np.asarray(total, like.dtype)
    return np.asarray(total / like.dtype.type(losses.size), like.dtype)


def _functional_soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return soft_margin_loss(input, target, _legacy_reduction(size_average, reduce, reduction))


declare("soft_margin_loss", soft_margin_loss, method=False, function=False, functional=_functional_soft_margin_loss,
        rules=[SoftMarginLossBackward0])


def _margin_terms(x, y, p, margin, weight):
    """multi_margin_loss: per sample, sum over i != y of max(0, margin - x[y] + x[i])^p (* w[y]) / C."""
    n, c = x.shape
    picked = x[np.arange(n), y][:, None]
    z = margin - picked + x
    z[np.arange(n), y] = 0
    h = np.maximum(z, 0) ** p
    if weight is not None:
        h = h * weight[y][:, None]
    return h, z


@rule("MultiMarginLossBackward0", ("self",), ("p * max(0, margin - x[y] + x[i])^(p-1) * w[y] * grad / C",),
      saved=("self", "target", "weight"), ctx=("p", "margin", "reduction"), optional=("weight",))
def MultiMarginLossBackward0(grad, xp, self, target, weight, p, margin, reduction):
    s = xp.raw(self)
    x2 = _f64(s).reshape(-1, s.shape[-1]) if s.ndim else _f64(s).reshape(1, 1)
    y = xp.raw(target).reshape(-1)
    w = None if weight is None else _f64(xp.raw(weight))
    n, c = x2.shape
    _, z = _margin_terms(x2, y, p, margin, w)
    d = np.where(z > 0, p * np.maximum(z, 0) ** (p - 1) if p != 1 else 1.0, 0.0)
    d[np.arange(n), y] = 0
    if w is not None:
        d = d * w[y][:, None]
    d[np.arange(n), y] = -d.sum(1)
    return (_loss_grad(grad, xp, self, d / c, n, reduction),)


def _loss_grad(grad, xp, self, d, n, reduction):
    """grad times the per-element derivative d (rows: samples), as the reduction spreads it."""
    s = xp.raw(self)
    if reduction == "mean":
        d = d / n
    coef = xp.constant(_out(d, s))
    if reduction == "none":
        out = xp.reshape(xp.reshape(grad, (-1, 1)) * coef, s.shape)
    else:
        out = xp.reshape(grad * coef, s.shape)
    return xp.depends(out, self)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, reduction=1):
    if p not in (1, 2):
        raise RuntimeError("only p == 1 and p == 2 supported")
    x = input._a
    x2 = _f64(x).reshape(-1, x.shape[-1]) if x.ndim else _f64(x).reshape(1, 1)
    y = target._a.reshape(-1)
    c = x2.shape[1]
    if y.size and (y.min() < 0 or y.max() >= c):
        raise RuntimeError("target out of range")
    h, _ = _margin_terms(x2, y, p, margin, None if weight is None else _f64(weight._a))
    losses = h.sum(1) / c
    red = _REDUCTIONS[reduction]
    out = _reduce_array(losses.reshape(target._a.shape) if red == "none" else losses, red, x)
    return result(out, MultiMarginLossBackward0, (input,), (input, target, weight), (p, margin, red))


def _functional_multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                                  reduction="mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    return multi_margin_loss(input, target, p, margin, weight, reduction)


declare("multi_margin_loss", multi_margin_loss, method=False, function=False,
        functional=_functional_multi_margin_loss, rules=[MultiMarginLossBackward0])


def _multilabel_terms(x, y):
    """Per sample: the target classes (up to the first -1) and sum over j in targets, i not in
    targets of max(0, 1 - (x[j] - x[i]))."""
    n, c = x.shape
    is_target = np.zeros((n, c), bool)
    for k in range(n):
        for j in y[k]:
            if j < 0:
                break
            is_target[k, j] = True
    z = 1 - (x[:, :, None] - x[:, None, :])      # [k, j, i]
    active = is_target[:, :, None] & ~is_target[:, None, :] & (z > 0)
    return z, active


@rule("MultilabelMarginLossBackward0", ("self",), ("-grad / C at targets, grad / C at the others, per active pair",),
      saved=("self", "target"), ctx=("reduction",))
def MultilabelMarginLossBackward0(grad, xp, self, target, reduction):
    s = xp.raw(self)
    x2 = _f64(s).reshape(-1, s.shape[-1])
    y = xp.raw(target).reshape(x2.shape)
    n, c = x2.shape
    _, active = _multilabel_terms(x2, y)
    return (_loss_grad(grad, xp, self, (-active.sum(2) + active.sum(1)) / c, n, reduction),)


def multilabel_margin_loss(input, target, reduction=1):
    x = input._a
    x2 = _f64(x).reshape(-1, x.shape[-1] if x.ndim else 1)
    y = target._a.reshape(x2.shape)
    n, c = x2.shape
    z, active = _multilabel_terms(x2, y)
    losses = np.where(active, z, 0).sum((1, 2)) / c
    red = _REDUCTIONS[reduction]
    out = _reduce_array(losses.reshape(x.shape[:-1]) if red == "none" else losses, red, x)
    return result(out, MultilabelMarginLossBackward0, (input,), (input, target), red)


def _functional_multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return multilabel_margin_loss(input, target, _legacy_reduction(size_average, reduce, reduction))


declare("multilabel_margin_loss", multilabel_margin_loss, method=False, function=False,
        functional=_functional_multilabel_margin_loss, rules=[MultilabelMarginLossBackward0])


# ------------------------------------------------------------------ rms_norm, bilinear
def rms_norm(input, normalized_shape, weight=None, eps=None):
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    x = input._a
    if tuple(x.shape[x.ndim - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(str(s) for s in shape)}], but got input of size{list(x.shape)}")
    dims = list(range(x.ndim - len(shape), x.ndim))
    if eps is None:
        eps = float(np.finfo(x.dtype).eps)
    out = input * (input.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    return out if weight is None else out * weight


declare("rms_norm", rms_norm, method=False, functional=True, rules=[])


@rule("TrilinearBackward0", ("i1", "i2", "i3"),
      ("grad @ (i3 · i2)", "i1^T-weighted grad ⊗ i3", "grad @ (i1 · i2)"),
      saved=("i1", "i2", "i3"))
def TrilinearBackward0(grad, xp, node, i1, i2, i3):
    """out[n, o] = sum_ij x1[n, i] w[o, i, j] x2[n, j] (i1 = x1, i2 = w, i3 = x2)."""
    e = node.edges
    g1 = g2 = g3 = None
    if xp.tensors:
        if e[0] is not None:
            g1 = (grad.unsqueeze(2).unsqueeze(3) * i2.unsqueeze(0) * i3.unsqueeze(1).unsqueeze(1)).sum([1, 3])
        if e[1] is not None:
            g2 = (grad.unsqueeze(2).unsqueeze(3) * i1.unsqueeze(1).unsqueeze(3) * i3.unsqueeze(1).unsqueeze(1)).sum(0)
        if e[2] is not None:
            g3 = (grad.unsqueeze(2).unsqueeze(3) * i2.unsqueeze(0) * i1.unsqueeze(1).unsqueeze(3)).sum([1, 2])
        return (g1, g2, g3)
    if e[0] is not None:
        g1 = np.einsum("no,oij,nj->ni", grad, i2, i3).astype(grad.dtype)
    if e[1] is not None:
        g2 = np.einsum("no,ni,nj->oij", grad, i1, i3).astype(grad.dtype)
    if e[2] is not None:
        g3 = np.einsum("no,oij,ni->nj", grad, i2, i1).astype(grad.dtype)
    return (g1, g2, g3)


def bilinear(input1, input2, weight, bias=None):
    a, b, w = input1._a, input2._a, weight._a
    if a.ndim != b.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {a.ndim} and {b.ndim}")
    if a.shape[:-1] != b.shape[:-1]:
        raise RuntimeError("bilinear(): input batch dimensions do not match: got "
                           f"{shape_list(a.shape[:-1])} and {shape_list(b.shape[:-1])}")
    if a.shape[-1] != w.shape[1]:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {a.shape[-1]} but expected "
                           f"{w.shape[1]}")
    if b.shape[-1] != w.shape[2]:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {b.shape[-1]} but expected "
                           f"{w.shape[2]}")
    lead = a.shape[:-1]
    x1 = input1.reshape(-1, a.shape[-1])
    x2 = input2.reshape(-1, b.shape[-1])
    out = np.einsum("ni,oij,nj->no", x1._a, w, x2._a).astype(a.dtype)
    t = result(out, TrilinearBackward0, (x1, weight, x2), (x1, weight, x2))
    t = t.view(*lead, w.shape[0])
    return t if bias is None else t + bias


declare("bilinear", bilinear, method=False, functional=True, rules=[TrilinearBackward0])


# ------------------------------------------------------------------ reflect / replicate / circular padding
def _pad_indices(size, before, after, mode):
    i = np.arange(-before, size + after)
    if mode == "reflect":
        period = 2 * (size - 1)
        j = np.abs(i) % period if period else np.zeros_like(i)
        return np.where(j >= size, period - j, j)
    if mode == "replicate":
        return np.clip(i, 0, size - 1)
    return i % size     # circular


def _pad_rules(mode, n):
    name = {"reflect": f"ReflectionPad{n}DBackward0", "replicate": f"ReplicationPad{n}DBackward0",
            "circular": "CopySlices"}[mode]

    @rule(name, ("self",), (f"{mode} padding's gradient: each padded element's gradient added to its source",),
          saved=("self",), ctx=("shape", "index"), key=f"{mode}_pad{n}d")
    def backward(grad, xp, self, shape, index):
        if xp.tensors:     # index_add along each padded dim: differentiable in grad
            out = grad
            for d, idx in index:
                zeros = _new(np.zeros(out.shape[:d] + (shape[d],) + out.shape[d + 1:], xp.raw(grad).dtype))
                out = zeros.index_add(d, _new(idx), out)
            return (out if mode == "circular" else xp.depends(out, self),)   # circular: slices only
        return (_pad_grad(grad, shape, index),)
    return backward


def _pad_grad(g, shape, index):
    out = g
    for d, idx in index:
        acc = np.zeros(out.shape[:d] + (shape[d],) + out.shape[d + 1:], out.dtype)
        moved = np.moveaxis(acc, d, 0)
        np.add.at(moved, idx, np.moveaxis(out, d, 0))
        out = acc
    return out


_PAD_RULES = {(m, n): _pad_rules(m, n) for m in ("reflect", "replicate", "circular") for n in (1, 2, 3)}


def pad_nonconstant(input, pad, mode):
    x = input._a
    k = len(pad) // 2
    if len(pad) % 2 or k not in (1, 2, 3) or x.ndim not in (k + 1, k + 2):
        raise NotImplementedError(f"Padding size {len(pad)} is not supported for {x.ndim}D input tensor.\n"
                                  "Supported combinations for non-constant padding:\n"
                                  "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                                  "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                                  "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    index = []
    out = x
    for i in range(k):
        d = x.ndim - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        size = x.shape[d]
        if mode == "reflect" and (before >= size or after >= size):
            raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input dimension, "
                               f"but got: padding ({before}, {after}) at dimension {d} of input {shape_list(x.shape)}")
        if mode == "circular" and (before > size or after > size):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        idx = _pad_indices(size, before, after, mode)
        out = np.take(out, idx, axis=d)
        index.append((d, idx))
    return result(np.ascontiguousarray(out), _PAD_RULES[mode, k], (input,), (input,),
                  (x.shape, tuple(reversed(index))))


declare("pad_nonconstant", pad_nonconstant, method=False, function=False, rules=list(_PAD_RULES.values()))
PAD_MODES.update(reflect=pad_nonconstant, replicate=pad_nonconstant, circular=pad_nonconstant)


# ------------------------------------------------------------------ conv3d, transposed convolution
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3, "conv3d")


declare("conv3d", conv3d, method=False, functional=True, rules=[])


@rule("ConvolutionBackward0", ("input", "weight", "bias"),
      ("conv(grad, weight)", "convolution_backward(input, grad)[weight]", "grad.sum(batch and spatial dims)"),
      saved=("input", "weight"), ctx=("stride", "padding", "dilation", "groups", "has_bias"),
      key="ConvolutionBackward0_transposed")
def ConvTransposeBackward0(grad, xp, node, input, weight, stride, padding, dilation, groups, has_bias):
    """y = conv_transpose(x, w) is the input gradient of conv(., w): <y, g> = <x, conv(g, w)>."""
    e = node.edges
    n = len(stride)
    g_in = g_w = g_b = None
    if xp.tensors:
        if e[0] is not None:
            g_in = _conv_forward(grad, weight, None, stride, padding, dilation, groups)
        if e[1] is not None:
            g_w = convolution_backward(input, grad, weight, (stride, padding, dilation, groups),
                                       (False, True, False))[1]
        if has_bias and e[2] is not None:    # one node for all three in PyTorch: attached to input and weight
            g_b = xp.depends(grad.sum([0, *range(2, 2 + n)]), input, weight)
        return (g_in, g_w, g_b)
    # ATen's slow path or oneDNN's deconvolution, decided by this op's input (a batch): d input
    # is the convolution of grad, d weight the convolution's weight gradient with the roles swapped
    slow = onednn._slow(input, weight, stride, dilation, groups)
    if e[0] is not None and cpu.capability() == "avx2":     # measured there
        g_in = _conv_op(xp, grad, weight, (stride, padding, dilation, groups), slow)
    elif e[0] is not None:
        g_in = _out(_conv_arrays(grad, weight, stride, padding, dilation, groups), grad)
    if e[1] is not None:
        g_w = _conv_bw(input, grad, weight, stride, padding, dilation, groups, (False, True, False), slow=slow)[1]
    if has_bias and e[2] is not None:
        g_b = onednn.deconv_bias_grad(grad, slow, weight, groups) if onednn.deconv_bias_measured(grad, n) else None
        if g_b is None:
            g_b = _out(_f64(grad).sum(axis=(0, *range(2, 2 + n))), grad)
    return (g_in, g_w, g_b)


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, n, name):
    x, w = input._a, weight._a
    unbatched = x.ndim == n + 1
    if x.ndim not in (n + 1, n + 2):
        raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to {name}, but got input of "
                           f"size: {shape_list(x.shape)}")
    if unbatched:
        input = input.unsqueeze(0)
        x = input._a
    stride, padding = _tuple(stride, n, "stride"), _tuple(padding, n, "padding")
    output_padding, dilation = _tuple(output_padding, n, "output_padding"), _tuple(dilation, n, "dilation")
    if x.shape[1] != w.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {shape_list(w.shape)}, expected input"
                           f"{shape_list(x.shape)} to have {w.shape[0]} channels, but got {x.shape[1]} channels "
                           "instead")
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        # ATen's words, a 1-d convolution seen as a 2-d one (height: padding 0, stride and dilation 1)
        views = (((0,) + output_padding, (1,) + stride, (1,) + dilation) if n == 1
                 else (output_padding, stride, dilation))
        axes = ("depth", "height", "width")[-max(2, n):]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(
            f"{what}_{axis}: {v}" for what, vals in zip(("output_padding", "stride", "dilation"), views)
            for axis, v in zip(axes, vals)))
    size = tuple((x.shape[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (w.shape[2 + i] - 1)
                 + output_padding[i] + 1 for i in range(n))
    shell = np.zeros((x.shape[0], w.shape[1] * groups) + size, x.dtype)
    out = _conv_bw(x, shell, w, stride, padding, dilation, groups, (True, False, False),
                   slow=onednn._slow(x, w, stride, dilation, groups))[0]
    out = _f64(out)
    if bias is not None:
        out = out + _f64(bias._a).reshape((1, -1) + (1,) * n)
    t = result(_out(out, x), ConvTransposeBackward0, (input, weight, bias), (input, weight),
               (stride, padding, dilation, groups, bias is not None))
    return t.squeeze(0) if unbatched else t


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1,
                           "conv_transpose1d")


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2,
                           "conv_transpose2d")


declare("conv_transpose1d", conv_transpose1d, method=False, functional=True, rules=[ConvTransposeBackward0])
declare("conv_transpose2d", conv_transpose2d, method=False, functional=True, rules=[])


# ------------------------------------------------------------------ fold / unfold (col2im / im2col)
def _im2col_arrays(x, kernel, dilation, padding, stride):
    if x.ndim == 3:     # unbatched: ATen's im2col takes it as it is
        cols, out = _im2col_arrays(x[None], kernel, dilation, padding, stride)
        return cols[0], out
    xpad = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out, views = _windows(xpad, kernel, stride, dilation)
    n, c = x.shape[:2]
    cols = np.stack([xpad[idx] for _, idx in views], 2)     # (N, C, kh*kw, oh, ow)
    return np.ascontiguousarray(cols).reshape(n, c * len(views), -1), out


def _col2im_arrays(cols, output_size, kernel, dilation, padding, stride):
    if cols.ndim == 2:
        return _col2im_arrays(cols[None], output_size, kernel, dilation, padding, stride)[0]
    n = cols.shape[0]
    k = int(np.prod(kernel))
    c = cols.shape[1] // k
    img = np.zeros((n, c) + tuple(s + 2 * p for s, p in zip(output_size, padding)), cols.dtype)
    out, views = _windows(img, kernel, stride, dilation)
    blocks = cols.reshape((n, c, k) + out)
    for j, (_, idx) in enumerate(views):
        img[idx] += blocks[:, :, j]
    crop = (slice(None), slice(None)) + tuple(slice(p, p + s) for p, s in zip(padding, output_size))
    return np.ascontiguousarray(img[crop])


@rule("Im2ColBackward0", ("self",), ("col2im(grad, input size, kernel_size, dilation, padding, stride)",),
      ctx=("size", "geometry"))
def Im2ColBackward0(grad, xp, size, geometry):
    if xp.tensors:
        return (col2im(grad, size, *geometry),)
    return (_col2im_arrays(grad, size, *geometry),)


@rule("Col2ImBackward0", ("self",), ("im2col(grad, kernel_size, dilation, padding, stride)",), ctx=("geometry",))
def Col2ImBackward0(grad, xp, geometry):
    if xp.tensors:
        return (im2col(grad, *geometry),)
    return (_im2col_arrays(grad, *geometry)[0],)


def _geometry(kernel_size, dilation, padding, stride):
    return (_tuple(kernel_size, 2, "kernel_size"), _tuple(dilation, 2, "dilation"), _tuple(padding, 2, "padding"),
            _tuple(stride, 2, "stride"))


def im2col(input, kernel, dilation, padding, stride):
    x = input._a
    cols, _ = _im2col_arrays(x, kernel, dilation, padding, stride)
    return result(cols, Im2ColBackward0, (input,), (), (x.shape[-2:], (kernel, dilation, padding, stride)))


def col2im(input, output_size, kernel, dilation, padding, stride):
    img = _col2im_arrays(input._a, tuple(output_size), kernel, dilation, padding, stride)
    return result(img, Col2ImBackward0, (input,), (), (kernel, dilation, padding, stride))


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    x = input._a
    if x.ndim not in (3, 4):
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {shape_list(x.shape)}")
    kernel, dilation, padding, stride = _geometry(kernel_size, dilation, padding, stride)
    unbatched = x.ndim == 3
    src = input.unsqueeze(0) if unbatched else input
    sizes = [(src._a.shape[2 + i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
             for i in range(2)]
    if any(s < 1 for s in sizes):
        raise RuntimeError(f"Given input with spatial size ({src._a.shape[2]}, {src._a.shape[3]}), "
                           f"kernel_size=({kernel[0]}, {kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), "
                           f"padding=({padding[0]}, {padding[1]}), calculated shape of the array of sliding blocks "
                           f"as ({sizes[0]}, {sizes[1]}), but its components must be at least one.")
    return im2col(input, kernel, dilation, padding, stride)


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    x = input._a
    if x.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {shape_list(x.shape)}")
    kernel, dilation, padding, stride = _geometry(kernel_size, dilation, padding, stride)
    output_size = _tuple(output_size, 2, "output_size")
    unbatched = x.ndim == 2
    src = input.unsqueeze(0) if unbatched else input
    k = kernel[0] * kernel[1]
    if src._a.shape[1] % k:
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={src._a.shape[1]} and kernel_size=({kernel[0]}, {kernel[1]}).")
    blocks = [(output_size[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
              for i in range(2)]
    if blocks[0] * blocks[1] != src._a.shape[2]:
        raise RuntimeError(f"Given output_size=({output_size[0]}, {output_size[1]}), kernel_size=({kernel[0]}, "
                           f"{kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, "
                           f"{padding[1]}), stride=({stride[0]}, {stride[1]}), expected size of input's dimension 2 "
                           f"to match the calculated number of sliding blocks {blocks[0]} * {blocks[1]} = "
                           f"{blocks[0] * blocks[1]}, but got input.size(2)={src._a.shape[2]}.")
    return col2im(input, output_size, kernel, dilation, padding, stride)


declare("im2col", im2col, method=False, function=False, rules=[Im2ColBackward0])
declare("col2im", col2im, method=False, function=False, rules=[Col2ImBackward0])
unfold.functional_name = "unfold"     # F.unfold (Tensor.unfold is another op)
declare("functional_unfold", unfold, method=False, function=False, functional=unfold, rules=[])
declare("fold", fold, method=False, function=False, functional=True, rules=[])
