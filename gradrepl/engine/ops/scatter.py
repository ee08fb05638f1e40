"""Writing at indices and selecting by them: scatter, scatter_add, scatter_reduce,
index_add/index_fill/index_copy, take, take_along_dim, nonzero/argwhere, masked_select,
and the counting/searching helpers (unique, bincount, bucketize, searchsorted, histc, histogram)."""
import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import GRAD, Node, edge_of
from gradrepl.engine.creation import linspace
from gradrepl.engine.ops.common import check_leaf_inplace, result
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.ops.sorting import returns
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import check_gather_scatter, shape_list, wrap_dim
from gradrepl.limits import check_numel


def _along(idx, dim):
    """The full advanced index that puts values at idx along dim (np.put_along_axis's)."""
    grids = list(np.indices(idx.shape, sparse=True))
    grids[dim] = idx
    return tuple(grids)


def _idx(index):
    return index._a if type(index) is Tensor else np.asarray(index, np.int64)


def _check_index(index, name):
    if type(index) is Tensor and index._a.dtype.kind not in "iu" or \
            type(index) is Tensor and index._a.dtype.itemsize < 4:
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")


def _dims_checked(self, index, src):
    """PyTorch's dimension checks of scatter/scatter_add (a 0-d tensor counts as one
    dimension there); returns the index as a Tensor and an array of at least one dim."""
    nd = max(self._a.ndim, 1)
    idx = _idx(index)
    if max(idx.ndim, 1) != nd:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if type(src) is Tensor and max(src._a.ndim, 1) != nd:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if idx.ndim == 0:
        idx = idx.reshape(1)
        return _new(idx), idx
    return (index if type(index) is Tensor else _new(idx)), idx


def _sub(a, idx):
    """The leading block of `a` that an index of shape idx.shape addresses (PyTorch lets
    src be larger than index)."""
    return a[tuple(slice(0, n) for n in idx.shape)]


# ================================================================ scatter
@rule("ScatterBackward0", ("self", "src"), ("grad.scatter(dim, index, 0)", "grad.gather(dim, index)"),
      saved=("index",), ctx=("dim", "src_shape"))
def ScatterBackward0(grad, xp, index, dim, src_shape):
    idx = xp.raw(index)
    gs = None
    if src_shape is not None:
        taken = xp.index(grad, _along(idx, dim))
        gs = xp.scatter(src_shape or (1,), tuple(slice(0, n) for n in idx.shape), taken)
        if not src_shape:                       # a 0-d src took part as one element
            gs = xp.reshape(gs, src_shape)
    return (xp.zero_at(grad, _along(idx, dim)), gs)


@rule("ScatterBackward1", ("self",), ("grad.scatter(dim, index, 0)",), saved=("index",), ctx=("dim",))
def ScatterBackward1(grad, xp, index, dim):
    return (xp.zero_at(grad, _along(xp.raw(index), dim)),)


@rule("ScatterAddBackward0", ("self", "src"), ("grad", "grad.gather(dim, index)"), saved=("index",),
      ctx=("dim", "src_shape"))
def ScatterAddBackward0(grad, xp, index, dim, src_shape):
    idx = xp.raw(index)
    gs = None
    if src_shape is not None:
        taken = xp.index(grad, _along(idx, dim))
        gs = xp.scatter(src_shape or (1,), tuple(slice(0, n) for n in idx.shape), taken)
        if not src_shape:
            gs = xp.reshape(gs, src_shape)
    return (grad, gs)


def scatter(self, dim, index, src=None, value=None, *, reduce=None):
    _check_index(index, "scatter")
    if src is None:
        src = value
    if self._a.ndim == 0:                       # PyTorch treats a 0-d self as one element
        return scatter(self.reshape(1), dim, index, src, reduce=reduce).reshape(())
    index, idx = _dims_checked(self, index, src)
    a = self._a
    d = wrap_dim(dim, a.ndim)
    check_gather_scatter("scatter", a.shape, d, idx, (src._a.shape or (1,)) if type(src) is Tensor else None)
    out = a.copy()
    where = _along(idx, d)
    if type(src) is Tensor:
        vals = _sub(src._a.reshape(-1) if src._a.ndim == 0 else src._a, idx).astype(a.dtype)
        if reduce == "add":
            np.add.at(out, where, vals)
        elif reduce == "multiply":
            np.multiply.at(out, where, vals)
        else:
            out[where] = vals
        src_shape = src._a.shape if src.requires_grad else None
        if reduce is None:
            return result(out, ScatterBackward0, (self, src), (index,), (d, src_shape))
        return _new(out)
    if reduce == "add":
        np.add.at(out, where, a.dtype.type(src))
    elif reduce == "multiply":
        np.multiply.at(out, where, a.dtype.type(src))
    else:
        out[where] = src
    return result(out, ScatterBackward1, (self,), (index,), d)


def scatter_add(self, dim, index, src):
    _check_index(index, "scatter_add")
    if self._a.ndim == 0:
        return scatter_add(self.reshape(1), dim, index, src).reshape(())
    index, idx = _dims_checked(self, index, src)
    a = self._a
    d = wrap_dim(dim, a.ndim)
    check_gather_scatter("scatter_add", a.shape, d, idx, src._a.shape or (1,))
    out = a.copy()
    np.add.at(out, _along(idx, d), _sub(src._a.reshape(-1) if src._a.ndim == 0 else src._a, idx).astype(a.dtype))
    return result(out, ScatterAddBackward0, (self, src), (index,), (d, src._a.shape if src.requires_grad else None))


_REDUCE = {"sum": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}


@rule("ScatterReduceBackward0", ("self", "src"),
      ("grad (reduce='sum'; / count for 'mean'), 0 where include_self=False and scattered to",
       "grad.gather(dim, index) (/ count for 'mean')"),
      saved=("index",), ctx=("dim", "reduce", "include_self", "count", "src_shape"))
def ScatterReduceBackward0(grad, xp, node, index, dim, reduce, include_self, count, src_shape):
    idx = xp.raw(index)
    where = _along(idx, dim)
    g = grad
    if reduce == "mean":
        g = grad / xp.constant(count.astype(xp.raw(grad).dtype))
    g_self = g_src = None
    if node.edges[0] is not None:
        g_self = g if include_self else xp.zero_at(g, where)
    if src_shape is not None:
        g_src = xp.scatter(src_shape, tuple(slice(0, n) for n in idx.shape), xp.index(g, where))
    return (g_self, g_src)


def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
    a = self._a
    d = wrap_dim(dim, a.ndim)
    idx = _idx(index)
    vals = _sub(src._a, idx).astype(a.dtype)
    where = _along(idx, d)
    out = a.copy()
    if reduce == "mean":
        total = out.copy() if include_self else np.zeros_like(out)
        count = np.ones(a.shape, np.int64) if include_self else np.zeros(a.shape, np.int64)
        np.add.at(total, where, vals)
        np.add.at(count, where, 1)
        touched = np.zeros(a.shape, bool)
        touched[where] = True
        mean = total / np.maximum(count, 1)
        out = np.where(touched, mean.astype(a.dtype) if a.dtype.kind in "fV" else mean // 1, out).astype(a.dtype)
        return _reduce_result(out, self, src, index, idx, d, reduce, include_self, np.maximum(count, 1))
    ufunc = _REDUCE[reduce]
    if not include_self:
        touched = np.zeros(a.shape, bool)
        touched[where] = True
        first = {"sum": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}[reduce]
        out = np.where(touched, np.asarray(first).astype(a.dtype) if a.dtype.kind in "fV" or reduce in ("sum", "prod")
                       else out, out)
    ufunc.at(out, where, vals)
    if reduce == "sum":
        return _reduce_result(out, self, src, index, idx, d, reduce, include_self, None)
    return _new(out)   # prod/amax/amin: no gradient in gradrepl yet


def _reduce_result(out, self, src, index, idx, d, reduce, include_self, count):
    return result(out, ScatterReduceBackward0, (self, src), (index if type(index) is Tensor else _new(idx),),
                  (d, reduce, include_self, count, src._a.shape if src.requires_grad else None))


def _inplace_of(fn):
    def inplace(self, *args, **kwargs):
        check_leaf_inplace(self)
        r = fn(self.detach() if self._fn is not None else _new(self._a), *args, **kwargs)
        self._a[...] = r._a
        self._ver[0] += 1
        return self
    return inplace


declare("scatter", scatter, rules=[ScatterBackward0, ScatterBackward1], inplace=_inplace_of(scatter))
declare("scatter_add", scatter_add, rules=[ScatterAddBackward0], inplace=_inplace_of(scatter_add))
declare("scatter_reduce", scatter_reduce, rules=[ScatterReduceBackward0], inplace=_inplace_of(scatter_reduce))


# ================================================================ index_add, index_fill, index_copy
@rule("IndexAddBackward0", ("self", "source"), ("grad", "grad.index_select(dim, index) * alpha"),
      saved=("index",), ctx=("dim", "alpha", "source_shape"))
def IndexAddBackward0(grad, xp, index, dim, alpha, source_shape):
    gs = None
    if source_shape is not None:
        sel = tuple([slice(None)] * dim + [xp.raw(index)])
        gs = xp.index(grad, sel)
        if alpha != 1:
            gs = gs * alpha
        gs = xp.reshape(gs, source_shape)
    return (grad, gs)


def index_add(self, dim, index, source, *, alpha=1):
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    idx = _idx(index)
    sa = source._a
    if sa.ndim and sa.shape[:d] + sa.shape[d + 1:] != a.shape[:d] + a.shape[d + 1:]:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {shape_list(a.shape)} source.shape = {shape_list(sa.shape)}")
    if idx.size != (sa.shape[d] if sa.ndim else 1):
        raise RuntimeError(f"index_add_(): Number of indices ({idx.size}) should be equal to source.size(dim): "
                           f"({sa.shape[d] if sa.ndim else 1}), for dim: {d}")
    out = a.copy()
    sel = tuple([slice(None)] * d + [idx])
    src = source._a.astype(a.dtype)
    if alpha != 1:
        src = src * a.dtype.type(alpha)
    np.add.at(out, sel, src)
    return result(out, IndexAddBackward0, (self, source), (index if type(index) is Tensor else _new(idx),),
                  (d, alpha, source._a.shape if source.requires_grad else None))


def _select(dim, idx):
    return tuple([slice(None)] * dim + [idx])


@rule("IndexFillBackward0", ("self",), ("grad.index_fill(dim, index, 0)",), saved=("index",), ctx=("dim",))
def IndexFillBackward0(grad, xp, index, dim):
    return (xp.zero_at(grad, _select(dim, xp.raw(index))),)


@rule("IndexFillBackward1", ("self", "value"), ("grad.index_fill(dim, index, 0)", "grad.index_select(dim, index).sum()"),
      saved=("index",), ctx=("dim",))
def IndexFillBackward1(grad, xp, node, index, dim):
    sel = _select(dim, xp.raw(index))
    return (None if node.edges[0] is None else xp.zero_at(grad, sel),
            None if node.edges[1] is None else xp.sum(xp.index(grad, sel), None, False))


@rule("IndexCopyBackward0", ("self", "source"), ("grad.index_fill(dim, index, 0)", "grad.index_select(dim, index)"),
      saved=("index",), ctx=("dim", "source_shape"))
def IndexCopyBackward0(grad, xp, node, index, dim, source_shape):
    sel = _select(dim, xp.raw(index))
    return (None if node.edges[0] is None else xp.zero_at(grad, sel),
            None if source_shape is None else xp.reshape(xp.index(grad, sel), source_shape))


def _index_tensor(index, idx):
    return index if type(index) is Tensor else _new(idx)


def index_fill(self, dim, index, value):
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    out = a.copy()
    idx = _idx(index)
    out[_select(d, idx)] = value.item() if type(value) is Tensor else value
    if type(value) is Tensor:
        return result(out, IndexFillBackward1, (self, value), (_index_tensor(index, idx),), d)
    return result(out, IndexFillBackward0, (self,), (_index_tensor(index, idx),), d)


def index_copy(self, dim, index, source):
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    out = a.copy()
    idx = _idx(index)
    out[_select(d, idx)] = source._a
    return result(out, IndexCopyBackward0, (self, source), (_index_tensor(index, idx),),
                  (d, source._a.shape if source.requires_grad else None))


declare("index_add", index_add, rules=[IndexAddBackward0], inplace=_inplace_of(index_add))
declare("index_fill", index_fill, rules=[IndexFillBackward0, IndexFillBackward1], inplace=_inplace_of(index_fill))
declare("index_copy", index_copy, rules=[IndexCopyBackward0], inplace=_inplace_of(index_copy))


# ================================================================ take, masked_select, nonzero
@rule("TakeBackward0", ("self",), ("zeros_like(self).put_(index, grad, true)",), saved=("index",), ctx=("shape",))
def TakeBackward0(grad, xp, index, shape):
    n = int(np.prod(shape))
    flat = xp.scatter((n,), (xp.raw(index).reshape(-1),), xp.reshape(grad, (-1,)))
    return (xp.reshape(flat, shape),)


@declare("take", rules=[TakeBackward0])
def take(self, index):
    a = self._a
    idx = _idx(index)
    n = a.size
    if idx.size and (idx.max() >= n or idx.min() < -n):
        bad = int(idx.max()) if idx.max() >= n else int(idx.min())
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    idx = np.where(idx < 0, idx + n, idx)
    out = a.reshape(-1)[idx]
    return result(out, TakeBackward0, (self,), (_new(idx.astype(np.int64)),), a.shape)


def take_along_dim(self, indices, dim=None):
    if dim is None:
        return self.reshape(-1).gather(0, indices.reshape(-1))
    return self.gather(dim, indices)


declare("take_along_dim", take_along_dim, rules=[])


@rule("MaskedSelectBackward0", ("self",), ("zeros_like(self).masked_scatter_(mask, grad)",), ctx=("mask", "shape"))
def MaskedSelectBackward0(grad, xp, mask, shape):
    m = np.broadcast_to(mask, shape)
    return (xp.scatter(shape, np.nonzero(m), grad),)


@declare("masked_select", rules=[MaskedSelectBackward0])
def masked_select(self, mask):
    a, m = self._a, mask._a
    if m.dtype != np.bool_:
        raise RuntimeError(f"masked_select: expected BoolTensor for mask")
    shape = np.broadcast_shapes(a.shape, m.shape)
    out = np.broadcast_to(a, shape)[np.broadcast_to(m, shape)]
    return result(np.ascontiguousarray(out), MaskedSelectBackward0, (self,), (), (m, shape))


@declare("nonzero", rules=[])
def nonzero(self, *, as_tuple=False):
    nz = np.nonzero(self._a) if self._a.ndim else ((np.zeros(1, np.int64),) if self._a else (np.zeros(0, np.int64),))
    if as_tuple:
        return tuple(_new(np.asarray(i, np.int64)) for i in nz)
    return _new(np.stack(nz, axis=1).astype(np.int64) if nz else np.zeros((0, 0), np.int64))


@declare("argwhere", rules=[])
def argwhere(self):
    return nonzero(self)


# ================================================================ counting and searching
def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
    a = self._a
    if dim is None:
        uniq, inv, counts = np.unique(a, return_inverse=True, return_counts=True)
        inv = inv.reshape(a.shape)
    else:
        d = wrap_dim(dim, a.ndim)
        uniq, inv, counts = np.unique(a, return_inverse=True, return_counts=True, axis=d)
    out = [_new(uniq)]
    if return_inverse:
        out.append(_new(np.asarray(inv, np.int64)))
    if return_counts:
        out.append(_new(np.asarray(counts, np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    a = self._a.reshape(-1) if dim is None else self._a
    if a.size == 0:
        return _new(a.copy())
    keep = np.concatenate([[True], a[1:] != a[:-1]])
    vals = a[keep]
    out = [_new(vals)]
    if return_inverse:
        out.append(_new((np.cumsum(keep) - 1).astype(np.int64).reshape(self._a.shape)))
    if return_counts:
        starts = np.nonzero(keep)[0]
        out.append(_new(np.diff(np.append(starts, a.size)).astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


declare("unique", unique, rules=[])
declare("unique_consecutive", unique_consecutive, rules=[])


@declare("bincount", rules=[])
def bincount(self, weights=None, minlength=0):
    a = self._a
    if a.ndim != 1 or (a.size and a.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    w = None if weights is None else weights._a
    if a.dtype.kind in "iu":
        check_numel(max(int(minlength), int(a.max()) + 1 if a.size else 0))
    out = np.bincount(a, weights=w, minlength=minlength)
    if w is None:
        return _new(out.astype(np.int64))
    return _new(out.astype(w.dtype if w.dtype.kind in "fV" else np.float64))


def bucketize(input, boundaries, *, out_int32=False, right=False):
    vals = input._a if type(input) is Tensor else np.asarray(input)
    idx = np.searchsorted(boundaries._a, vals, side="right" if right else "left")
    return _new(np.asarray(idx, np.int32 if out_int32 else np.int64))


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    side = side or ("right" if right else "left")
    seq = sorted_sequence._a
    vals = input._a if type(input) is Tensor else np.asarray(input)
    if seq.ndim == 1:
        idx = np.searchsorted(seq, vals, side=side)
    else:
        idx = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(seq.reshape(-1, seq.shape[-1]),
                                                                          vals.reshape(-1, vals.shape[-1]))])
        idx = idx.reshape(vals.shape)
    return _new(np.asarray(idx, np.int32 if out_int32 else np.int64))


declare("bucketize", bucketize, method=False, rules=[])
declare("searchsorted", searchsorted, method=False, rules=[])


@declare("histc", rules=[])
def histc(self, bins=100, min=0, max=0):
    check_numel(bins)
    a = self._a.astype(np.float64)
    lo, hi = float(min), float(max)
    if lo == hi and a.size:
        lo, hi = float(a.min()), float(a.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    inside = a[(a >= lo) & (a <= hi)]
    idx = np.minimum(((inside - lo) * bins / (hi - lo)).astype(np.int64), bins - 1)
    out = np.bincount(idx, minlength=bins).astype(self._a.dtype if self._a.dtype.kind in "fV" else np.float32)
    return _new(out)


@rule("NotImplemented", ("self",), ("not implemented",), ctx=("op",), multi=True, key="NotImplemented histogram")
def HistogramNotImplemented(grads, xp, op):
    raise RuntimeError(f"derivative for {op} is not implemented")


def _histogram_counts(a, edges, weight, density, search):
    """PyTorch's histogramdd kernel in the input's dtype: `search` is its linear interpolation
    with local search (equal-width bins from an int), else the binary search over given edges."""
    lo, hi, n = edges[0], edges[-1], len(edges)
    keep = (a >= lo) & (a <= hi)          # NaN and values outside the edges are skipped
    x = a[keep]
    if search:
        with np.errstate(all="ignore"):
            pos = ((x - lo) * a.dtype.type(n - 1) / (hi - lo)).astype(np.int64)
        # std::upper_bound over the edges pos-1, pos, pos+1: the bin whose edges hold x
        found = np.maximum(pos - 1, 0)
        for k in (pos - 1, pos, pos + 1):
            inside = (k >= 0) & (k < n)
            found = found + (inside & (edges[np.clip(k, 0, n - 1)] <= x))
        pos = found - 1
    else:
        pos = np.searchsorted(edges, x, side="right") - 1
    pos = np.minimum(pos, n - 2)          # the rightmost bin includes its right edge
    w = None if weight is None else weight[keep]
    hist = np.bincount(pos, weights=w, minlength=n - 1).astype(a.dtype)
    if density:
        hist = hist / hist.sum(dtype=a.dtype)
        hist = hist / np.diff(edges)
    return hist


_C_NAME = {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
           "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
           "bool": "bool"}


def histogram(self, bins=100, *, range=None, weight=None, density=False):
    a = self._a
    if a.dtype.kind != "f" or a.dtype == D.bfloat16.np:
        name = {"i": "Long", "u": "Byte", "b": "Bool"}.get(a.dtype.kind, str(a.dtype))
        if a.dtype.kind in "iu":
            name = {np.dtype(np.int64): "Long", np.dtype(np.int32): "Int", np.dtype(np.int16): "Short",
                    np.dtype(np.int8): "Char", np.dtype(np.uint8): "Byte"}[a.dtype]
        raise NotImplementedError(f'"histogramdd" not implemented for \'{name}\'')
    flat = a.reshape(-1)
    if weight is not None:
        if type(weight) is not Tensor or weight._a.dtype != a.dtype or weight._a.shape != a.shape:
            raise RuntimeError("torch.histogram: if weight tensor is provided it should have the same shape as "
                               "the input tensor")
        weight = weight._a.reshape(-1)
    if type(bins) is Tensor:
        if bins._a.dtype != a.dtype:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, but "
                               f"got input with dtype {_C_NAME[a.dtype.name]} and bins for dimension 0 with "
                               f"dtype {_C_NAME[bins._a.dtype.name]}")
        edges = bins._a.reshape(-1).copy()
        search = False
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        check_numel(bins + 1)
        if range is not None:
            lo, hi = float(range[0]), float(range[1])
        elif flat.size:
            lo, hi = float(flat.min()), float(flat.max())
        else:
            lo, hi = 0.0, 1.0
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise RuntimeError(f"torch.histogramdd: dimension 0's range [{lo:g}, {hi:g}] is not finite")
        if lo > hi:
            raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {lo:g} max {hi:g} "
                               f"for dimension 0")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = linspace(lo, hi, bins + 1, dtype=D.from_np(a.dtype))._a
        search = True
    outs = (_new(_histogram_counts(flat, edges, weight, density, search)), _new(edges))
    if GRAD[0] and (self._fn is not None or self._rg):
        node = Node(HistogramNotImplemented, (edge_of(self),), (), "aten::histogram")
        node.n_out = 2
        for k, o in enumerate(outs):
            o._fn, o._onr = node, k
    return returns("histogram", ("hist", "bin_edges"))(outs)


declare("histogram", histogram, rules=[HistogramNotImplemented])
