"""3-D pooling (max, average, adaptive, unpooling) over (N, C, D, H, W) or (C, D, H, W) inputs,
as PyTorch's CPU kernels: windows scanned depth, then rows, then columns; the first maximum
(a NaN wins) keeps its flat index into D*H*W; averages add in the input's opmath type."""
import numpy as np

from gradrepl.engine.ops.common import result
from gradrepl.engine.ops.nn import _accumulator, _adaptive_windows, _out, _pool_geometry, _tuple
from gradrepl.engine.ops.nn_extra import _unpool_output_size
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.tensor import _new
from gradrepl.engine.util import shape_list


def _args(kernel_size, stride, padding, dilation=1):
    kernel = _tuple(kernel_size, 3)
    stride = kernel if stride is None or stride == [] or stride == () else _tuple(stride, 3)
    padding, dilation = _tuple(padding, 3), _tuple(dilation, 3)
    for k, p, d in zip(kernel, padding, dilation):
        if p > (d * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, "
                               f"kernel_size={k} and dilation={d}")
    return kernel, stride, padding, dilation


def _check_input(x, name):
    if x.ndim not in (4, 5) or not x.size:
        raise RuntimeError(f"non-empty 4D or 5D (batch mode) tensor expected for input")


def _windows(x, kernel, stride, padding, dilation, out, fill):
    """(..., od, oh, ow, K) window values (fill outside) and each one's flat index into D*H*W (-1 outside)."""
    sizes = x.shape[-3:]
    coords = [np.arange(o)[:, None] * s - p + np.arange(k)[None] * d
              for o, s, p, k, d in zip(out, stride, padding, kernel, dilation)]
    c0 = coords[0][:, None, None, :, None, None]
    c1 = coords[1][None, :, None, None, :, None]
    c2 = coords[2][None, None, :, None, None, :]
    inside = (c0 >= 0) & (c0 < sizes[0]) & (c1 >= 0) & (c1 < sizes[1]) & (c2 >= 0) & (c2 < sizes[2])
    flat = (np.clip(c0, 0, sizes[0] - 1) * sizes[1] * sizes[2] + np.clip(c1, 0, sizes[1] - 1) * sizes[2]
            + np.clip(c2, 0, sizes[2] - 1))
    flat = np.where(inside, flat, -1).reshape(out[0], out[1], out[2], -1)
    xf = x.reshape(x.shape[:-3] + (sizes[0] * sizes[1] * sizes[2],))
    vals = np.where(flat >= 0, xf[..., np.clip(flat, 0, None)], fill)
    return vals, flat


def _first_max(vals, flat):
    nan = np.isnan(vals)
    pick = np.where(nan.any(-1), nan.argmax(-1), vals.argmax(-1))
    idx = np.take_along_axis(np.broadcast_to(flat, vals.shape), pick[..., None], -1)[..., 0]
    return np.take_along_axis(vals, pick[..., None], -1)[..., 0], idx


def _scatter_array(g, shape, indices):
    """The gradient of a max pooling: g added at each window's maximum (index order)."""
    lead = int(np.prod(shape[:-3]))
    gx = np.zeros((lead, int(np.prod(shape[-3:]))), g.dtype)
    np.add.at(gx, (np.arange(lead)[:, None], indices.reshape(lead, -1)), g.reshape(lead, -1))
    return gx.reshape(shape)


def _gather_array(g, indices):
    lead = int(np.prod(indices.shape[:-3]))
    return np.take_along_axis(g.reshape(lead, -1), indices.reshape(lead, -1), 1).reshape(indices.shape)


def _double_backward(name, first_formula):
    """The node of a pooling gradient computed under create_graph: linear in grad_output (the
    derivative given), none for self (PyTorch's edges: grad_output, self)."""
    def fn(grad, xp, node, kind, args):
        g_out = None
        if node.edges[0] is not None:
            g_out = first_formula(grad, xp, kind, args)
        return (g_out, None if node.edges[1] is None else xp.zeros(args[0], grad))
    return rule(name, ("grad_output", "self"), (first_formula.__doc__, "zeros_like(self)"), ctx=("kind", "args"))(fn)


def _pooled_again(grad, xp, kind, args):
    """the pooling applied to grad"""
    g = xp.raw(grad) if xp.tensors else grad
    if kind == "max":
        out = _gather_array(g, args[1])
    elif kind == "avg":
        shape, flat, divisor = args
        vals, _ = _windows(g, *args[3])
        acc = _accumulator(g)
        total = np.zeros(vals.shape[:-1], acc)
        for j in range(vals.shape[-1]):
            total += vals[..., j].astype(acc)
        out = _out(total / divisor.astype(acc), g)
    else:
        out = _adaptive_avg(g, args[1])
    return _new(out) if xp.tensors else out


MaxPool3DWithIndicesBackwardBackward0 = _double_backward("MaxPool3DWithIndicesBackwardBackward0", _pooled_again)
AvgPool3DBackwardBackward0 = _double_backward("AvgPool3DBackwardBackward0", _pooled_again)
AdaptiveMaxPool3DBackwardBackward0 = _double_backward("AdaptiveMaxPool3DBackwardBackward0", _pooled_again)
AdaptiveAvgPool3DBackwardBackward0 = _double_backward("AdaptiveAvgPool3DBackwardBackward0", _pooled_again)
_SECOND = {"MaxPool3DWithIndicesBackward0": MaxPool3DWithIndicesBackwardBackward0,
           "AvgPool3DBackward0": AvgPool3DBackwardBackward0,
           "AdaptiveMaxPool3DBackward0": AdaptiveMaxPool3DBackwardBackward0,
           "AdaptiveAvgPool3DBackward0": AdaptiveAvgPool3DBackwardBackward0}


def _first(name, kind, grad, xp, self, args, compute):
    """A first-order pooling gradient: an array, or under create_graph a tensor whose node is
    PyTorch's double-backward node."""
    if not xp.tensors:
        return compute(grad)
    value = compute(xp.raw(grad))
    return result(value, _SECOND[name], (grad, self), (), (kind, args))


def _max_rule(name):
    def fn(grad, xp, self, shape, indices):
        return (_first(name, "max", grad, xp, self, (shape, indices), lambda g: _scatter_array(g, shape, indices)),)
    return rule(name, ("self",), ("grad scattered to the max of each window",), saved=("self",),
                ctx=("shape", "indices"))(fn)


MaxPool3DWithIndicesBackward0 = _max_rule("MaxPool3DWithIndicesBackward0")


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    x = input._a
    _check_input(x, "max_pool3d")
    kernel, stride, padding, dilation = _args(kernel_size, stride, padding, dilation)
    out = _pool_geometry(x.shape[-3:], kernel, stride, padding, dilation, ceil_mode)
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input size: ({'x'.join(str(s) for s in x.shape[-4:])}). Calculated output size: "
                           f"({x.shape[-4]}x{out[0]}x{out[1]}x{out[2]}). Output size is too small")
    vals, flat = _windows(x, kernel, stride, padding, dilation, out, -np.inf)
    res, idx = _first_max(vals, flat)
    indices = _new(idx.astype(np.int64))
    t = result(res.astype(x.dtype), MaxPool3DWithIndicesBackward0, (input,), (input,), (x.shape, idx))
    return (t, indices) if return_indices else t


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def _torch_max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)


declare("max_pool3d", max_pool3d, method=False, torch_forward=_torch_max_pool3d, functional=True,
        rules=[MaxPool3DWithIndicesBackward0])
declare("max_pool3d_with_indices", max_pool3d_with_indices, method=False, function=False, functional=True,
        rules=[MaxPool3DWithIndicesBackward0])


# ------------------------------------------------------------------ average
def _divisor(sizes, kernel, stride, padding, out, count_include_pad, divisor_override):
    if divisor_override:
        return np.float64(divisor_override)
    ext_all, ext_in = [], []
    for size, k, s, p, o in zip(sizes, kernel, stride, padding, out):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, size + p)
        ext_all.append(end - start)
        ext_in.append(np.minimum(end, size) - np.maximum(start, 0))
    ext = ext_all if count_include_pad else ext_in
    return (ext[0][:, None, None] * ext[1][None, :, None] * ext[2][None, None, :]).astype(np.float64)


def _avg_bw_array(g, shape, flat, divisor):
    lead = int(np.prod(shape[:-3]))
    n = int(np.prod(shape[-3:]))
    k = flat.shape[-1]
    target = np.broadcast_to(np.where(flat >= 0, flat, n).reshape(1, -1), (lead, flat.size))
    acc = _accumulator(g)
    share = np.broadcast_to((g.astype(acc) / divisor.astype(acc)).reshape(lead, -1, 1), (lead, flat[..., 0].size, k))
    gx = np.zeros((lead, n + 1), acc)
    np.add.at(gx, (np.arange(lead)[:, None], target), share.reshape(lead, -1))
    return _out(gx[:, :n].reshape(shape), g)


@rule("AvgPool3DBackward0", ("self",), ("grad / divisor spread over each window",), saved=("self",),
      ctx=("shape", "flat", "divisor", "geometry"))
def AvgPool3DBackward0(grad, xp, self, shape, flat, divisor, geometry):
    return (_first("AvgPool3DBackward0", "avg", grad, xp, self, (shape, flat, divisor, geometry),
                   lambda g: _avg_bw_array(g, shape, flat, divisor)),)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    x = input._a
    _check_input(x, "avg_pool3d")
    kernel, stride, padding, _ = _args(kernel_size, stride, padding)
    out = _pool_geometry(x.shape[-3:], kernel, stride, padding, (1, 1, 1), ceil_mode)
    if any(o <= 0 for o in out):
        raise RuntimeError(f"Given input size: ({'x'.join(str(s) for s in x.shape[-4:])}). Calculated output size: "
                           f"({x.shape[-4]}x{out[0]}x{out[1]}x{out[2]}). Output size is too small")
    vals, flat = _windows(x, kernel, stride, padding, (1, 1, 1), out, 0)
    div = _divisor(x.shape[-3:], kernel, stride, padding, out, count_include_pad, divisor_override)
    acc = _accumulator(x)
    total = np.zeros(vals.shape[:-1], acc)
    for j in range(vals.shape[-1]):     # the window in scan order, in the opmath type
        total += vals[..., j].astype(acc)
    res = _out(total / div.astype(acc), x)
    return result(res, AvgPool3DBackward0, (input,), (input,), (x.shape, flat, div,
                                                                 (kernel, stride, padding, (1, 1, 1), out, 0)))


declare("avg_pool3d", avg_pool3d, method=False, function=False, functional=True, rules=[AvgPool3DBackward0])


# ------------------------------------------------------------------ adaptive
def _sizes3(x, output_size, name):
    if x.ndim not in (4, 5):
        raise RuntimeError(f"{name}(): Expected 4D or 5D tensor, but got {shape_list(x.shape)}")
    sizes = (output_size,) * 3 if isinstance(output_size, int) or output_size is None else tuple(output_size)
    if len(sizes) != 3:
        raise RuntimeError(f"{name}: internal error: output_size.size() must be 3")
    return tuple(x.shape[-3 + k] if s is None else s for k, s in enumerate(sizes))


def _adaptive_cells(x, out):
    for i, (d0, d1) in enumerate(_adaptive_windows(x.shape[-3], out[0])):
        for j, (h0, h1) in enumerate(_adaptive_windows(x.shape[-2], out[1])):
            for k, (w0, w1) in enumerate(_adaptive_windows(x.shape[-1], out[2])):
                yield (i, j, k), (d0, d1, h0, h1, w0, w1)


def _adaptive_avg_bw_array(g, shape):
    acc = _accumulator(g)
    gx = np.zeros(shape, acc)
    for (i, j, k), (d0, d1, h0, h1, w0, w1) in _adaptive_cells(np.empty(shape, np.int8), g.shape[-3:]):
        share = g[..., i, j, k].astype(acc) / acc.type(d1 - d0) / acc.type(h1 - h0) / acc.type(w1 - w0)
        gx[..., d0:d1, h0:h1, w0:w1] += share[..., None, None, None]
    return _out(gx, g)


@rule("AdaptiveAvgPool3DBackward0", ("self",), ("grad / window size spread over each window",), saved=("self",),
      ctx=("shape", "out"))
def AdaptiveAvgPool3DBackward0(grad, xp, self, shape, out):
    return (_first("AdaptiveAvgPool3DBackward0", "adaptive", grad, xp, self, (shape, out),
                   lambda g: _adaptive_avg_bw_array(g, shape)),)


def _adaptive_avg(x, out):
    acc = _accumulator(x)
    res = np.zeros(x.shape[:-3] + out, acc)
    for (i, j, k), (d0, d1, h0, h1, w0, w1) in _adaptive_cells(x, out):
        total = np.zeros(x.shape[:-3], acc)
        for a in range(d0, d1):
            for b in range(h0, h1):
                for c in range(w0, w1):
                    total += x[..., a, b, c]
        res[..., i, j, k] = total / acc.type(d1 - d0) / acc.type(h1 - h0) / acc.type(w1 - w0)
    return _out(res, x)


def adaptive_avg_pool3d(input, output_size):
    x = input._a
    out = _sizes3(x, output_size, "adaptive_avg_pool3d")
    return result(_adaptive_avg(x, out), AdaptiveAvgPool3DBackward0, (input,), (input,), (x.shape, out))


declare("adaptive_avg_pool3d", adaptive_avg_pool3d, method=False, function=False, functional=True,
        rules=[AdaptiveAvgPool3DBackward0])


AdaptiveMaxPool3DBackward0 = _max_rule("AdaptiveMaxPool3DBackward0")


def adaptive_max_pool3d(input, output_size, return_indices=False):
    x = input._a
    out = _sizes3(x, output_size, "adaptive_max_pool3d")
    res = np.zeros(x.shape[:-3] + out, x.dtype)
    idx = np.zeros(x.shape[:-3] + out, np.int64)
    H, W = x.shape[-2:]
    for (i, j, k), (d0, d1, h0, h1, w0, w1) in _adaptive_cells(x, out):
        win = x[..., d0:d1, h0:h1, w0:w1].reshape(x.shape[:-3] + (-1,))
        nan = np.isnan(win)
        pick = np.where(nan.any(-1), nan.argmax(-1), win.argmax(-1))
        res[..., i, j, k] = np.take_along_axis(win, pick[..., None], -1)[..., 0]
        kh, kw = h1 - h0, w1 - w0
        idx[..., i, j, k] = (d0 + pick // (kh * kw)) * H * W + (h0 + pick // kw % kh) * W + w0 + pick % kw
    indices = _new(idx)
    t = result(res, AdaptiveMaxPool3DBackward0, (input,), (input,), (x.shape, idx))
    return (t, indices) if return_indices else t


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return adaptive_max_pool3d(input, output_size, True)


declare("adaptive_max_pool3d", adaptive_max_pool3d, method=False, function=False, functional=True,
        rules=[AdaptiveMaxPool3DBackward0])
declare("adaptive_max_pool3d_with_indices", adaptive_max_pool3d_with_indices, method=False, function=False,
        functional=True, rules=[AdaptiveMaxPool3DBackward0])


# ------------------------------------------------------------------ unpooling
@rule("MaxUnpool3DBackward0", ("self",), ("grad read back at indices",), ctx=("indices",))
def MaxUnpool3DBackward0(grad, xp, indices):
    flat_idx = indices.reshape(*indices.shape[:-3], -1)
    if xp.tensors:
        return (grad.flatten(-3).gather(-1, _new(flat_idx)).view(*indices.shape),)
    flat = grad.reshape(*grad.shape[:-3], -1)
    return (np.take_along_axis(flat, flat_idx, -1).reshape(indices.shape),)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    kernel_size = _tuple(kernel_size, 3)
    stride = _tuple(stride, 3) if stride is not None else kernel_size
    od, oh, ow = _unpool_output_size(input, kernel_size, stride, _tuple(padding, 3), output_size)
    a, idx = input._a, indices._a
    n = od * oh * ow
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        bad = idx[(idx < 0) | (idx >= n)].flat[-1]
        raise RuntimeError(f"Found an invalid max index: {bad} (output volumes are of size {od}x{oh}x{ow})")
    out = np.zeros((*a.shape[:-3], n), a.dtype)
    np.put_along_axis(out, idx.reshape(*idx.shape[:-3], -1), a.reshape(*a.shape[:-3], -1), -1)
    return result(out.reshape(*a.shape[:-3], od, oh, ow), MaxUnpool3DBackward0, (input,), (), idx.copy())


declare("max_unpool3d", max_unpool3d, method=False, function=False, functional=True, rules=[MaxUnpool3DBackward0])
