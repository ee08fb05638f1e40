"""Fractional max pooling (Graham, 2014) as PyTorch's CPU kernels: one uniform sample per
plane and dimension drawn as `torch.rand(N, C, dims)` in the input's dtype, each window's
start from generate_intervals (in the input's dtype), the first maximum of each window
(a NaN wins) with its flat input index."""
import numpy as np

from gradrepl.engine import creation
from gradrepl.engine.ops.common import result
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import pytype


def _intervals(sample, size, out, pool, dt):
    seq = np.zeros(out, np.int64)
    if out > 1:
        alpha = dt.type(size - pool) / dt.type(out - 1)
        for i in range(out - 1):
            seq[i] = int(np.trunc((dt.type(i) + sample) * alpha)) - int(np.trunc(sample * alpha))
    if out > 0:
        seq[out - 1] = size - pool
    return seq


def _ntuple(v, n):
    return tuple(int(x) for x in v) if isinstance(v, (tuple, list)) else (int(v),) * n


def _pool(input, kernel_size, output_size, output_ratio, return_indices, nd, name, spec):
    if type(input) is not Tensor:
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {pytype(input)}")
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    x = input._a
    if x.ndim not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: {list(x.shape)}")
    kernel = _ntuple(kernel_size, nd)
    if output_size is None:
        if not isinstance(output_ratio, (tuple, list)):   # PyTorch's len(output_ratio)
            raise TypeError(f"object of type '{pytype(output_ratio)}' has no len()")
        ratio = tuple(output_ratio) * (nd if len(output_ratio) == 1 else 1)
        if len(ratio) > nd:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple of Ints.")
        output_size = [int(x.shape[-nd + d] * ratio[d]) for d in range(nd)]
    out = _ntuple(output_size, nd)
    sizes = x.shape[-nd:]
    for d in range(nd):
        if out[d] + kernel[d] - 1 > sizes[d]:
            what = ("time", "height", "width")[3 - nd + d] if nd == 3 else ("height", "width")[d]
            raise RuntimeError(f"{name}_out(): pool {what} {kernel[d]} too large relative to input {what} {sizes[d]}")
    batch = x.ndim == nd + 2
    n_batch = x.shape[0] if batch else 1
    planes = x.shape[-nd - 1]
    samples = creation.rand(n_batch, planes, nd, dtype=input.dtype)._a
    xs = x.reshape((n_batch * planes,) + tuple(sizes))
    dt = x.dtype
    res = np.zeros((n_batch * planes,) + out, dt)
    idx = np.zeros((n_batch * planes,) + out, np.int64)
    strides = [int(np.prod(sizes[d + 1:])) for d in range(nd)]
    for p in range(n_batch * planes):
        smp = samples.reshape(-1, nd)[p]
        # PyTorch's sample order: 2-D (width, height), 3-D (time, height, width)
        which = (1, 0) if nd == 2 else (0, 1, 2)
        starts = [_intervals(smp[which[d]], sizes[d], out[d], kernel[d], dt) for d in range(nd)]
        coords = [starts[d][:, None] + np.arange(kernel[d])[None] for d in range(nd)]
        flat = np.zeros(out + tuple(kernel), np.int64)
        for d in range(nd):
            shape = [1] * (2 * nd)
            shape[d], shape[nd + d] = out[d], kernel[d]
            flat = flat + (coords[d] * strides[d]).reshape(shape)
        flat = flat.reshape(out + (-1,))
        vals = xs[p].reshape(-1)[flat]
        nan = np.isnan(vals)
        last_nan = vals.shape[-1] - 1 - nan[..., ::-1].argmax(-1)
        pick = np.where(nan.any(-1), last_nan, vals.argmax(-1))
        res[p] = np.take_along_axis(vals, pick[..., None], -1)[..., 0]
        idx[p] = np.take_along_axis(flat, pick[..., None], -1)[..., 0]
    lead = x.shape[:-nd]
    res = res.reshape(lead + out)
    idx = idx.reshape(lead + out)
    t = result(res, spec, (input,), (), (x.shape, idx, nd))
    return (t, _new(idx)) if return_indices else t


def _scatter(grad, xp, shape, indices, nd):
    g = xp.raw(grad) if xp.tensors else grad
    lead = int(np.prod(shape[:-nd]))
    gx = np.zeros((lead, int(np.prod(shape[-nd:]))), g.dtype)
    np.add.at(gx, (np.arange(lead)[:, None], indices.reshape(lead, -1)), g.reshape(lead, -1))
    gx = gx.reshape(shape)
    return (xp.constant(gx) if xp.tensors else gx,)


FractionalMaxPool2DBackward0 = rule("FractionalMaxPool2DBackward0", ("self",), ("grad scattered to each window's max",),
                                    ctx=("shape", "indices", "nd"))(
    lambda grad, xp, shape, indices, nd: _scatter(grad, xp, shape, indices, nd))
FractionalMaxPool3DBackward0 = rule("FractionalMaxPool3DBackward0", ("self",), ("grad scattered to each window's max",),
                                    ctx=("shape", "indices", "nd"))(
    lambda grad, xp, shape, indices, nd: _scatter(grad, xp, shape, indices, nd))


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False):
    return _pool(input, kernel_size, output_size, output_ratio, return_indices, 2, "fractional_max_pool2d",
                 FractionalMaxPool2DBackward0)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False):
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True)


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False):
    return _pool(input, kernel_size, output_size, output_ratio, return_indices, 3, "fractional_max_pool3d",
                 FractionalMaxPool3DBackward0)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False):
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True)


for _name, _fn, _spec in (("fractional_max_pool2d", fractional_max_pool2d, FractionalMaxPool2DBackward0),
                          ("fractional_max_pool2d_with_indices", fractional_max_pool2d_with_indices,
                           FractionalMaxPool2DBackward0),
                          ("fractional_max_pool3d", fractional_max_pool3d, FractionalMaxPool3DBackward0),
                          ("fractional_max_pool3d_with_indices", fractional_max_pool3d_with_indices,
                           FractionalMaxPool3DBackward0)):
    declare(_name, _fn, method=False, function=False, functional=True, rules=[_spec])
