"""Order statistics and scans: sort, argsort, topk, median, kthvalue, mode, amin, aminmax,
cummax/cummin, cumprod, logcumsumexp, nansum/nanmean, count_nonzero, std_mean/var_mean.

Value-selecting ops return PyTorch's `torch.return_types.NAME(values=..., indices=...)`
and send the gradient back to the selected positions (value_selecting_reduction_backward).
"""
import builtins

import numpy as np

from gradrepl.engine import signatures
from gradrepl.engine.autograd import GRAD, Node, SavedOutput, edge_of
from gradrepl.engine.ops.common import RESULT, result
from gradrepl.engine.ops.inplace import unary_inplace
from gradrepl.engine.ops.reduce import (MeanBackward0, MeanBackward1, StdBackward0, VarBackward0, check_nonempty,
                                         extreme_backward, welford)
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.printing import return_types_repr
from gradrepl.engine.summation import dim_sum, full_sum
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import dims_tuple, pytype, wrap_dim

RETURN_CLASSES = {}


class NamedReturn(tuple):
    """A torch.return_types tuple: fields by name and by position."""

    __slots__ = ()
    _name = ""
    _fields = ()

    def __repr__(self):
        return return_types_repr(self._name, [(f, repr(v)) for f, v in zip(self._fields, self)])


def returns(name, fields):
    """The torch.return_types.NAME class with these fields."""
    cls = RETURN_CLASSES.get(name)
    if cls is None:
        ns = {"__slots__": (), "_name": name, "_fields": tuple(fields)}
        for i, f in enumerate(fields):
            ns[f] = property(lambda self, i=i: self[i])
        cls = RETURN_CLASSES[name] = type(f"return_types_{name}", (NamedReturn,), ns)
    return cls


def _select_back(grad, xp, indices, shape, dim, keepdim):
    """grad placed at `indices` along dim in zeros(shape) (several picks of one element add up)."""
    if not shape:
        return (xp.reshape(grad, ()),)
    idx = xp.raw(indices)
    if not keepdim:
        grad = xp.unsqueeze_dims(grad, (dim,))
        idx = np.expand_dims(idx, dim)
    return (xp.scatter_add_along(shape, dim, idx, grad),)


def _selecting(name):
    return rule(name, ("self",), ("grad placed at indices (value_selecting_reduction_backward)",),
                saved=("indices",), ctx=("shape", "dim", "keepdim"))(_select_back)


SortBackward0 = _selecting("SortBackward0")
TopkBackward0 = _selecting("TopkBackward0")
MedianBackward1 = _selecting("MedianBackward1")
NanmedianBackward1 = _selecting("NanmedianBackward1")
KthvalueBackward0 = _selecting("KthvalueBackward0")
ModeBackward0 = _selecting("ModeBackward0")
CummaxBackward0 = _selecting("CummaxBackward0")
CumminBackward0 = _selecting("CumminBackward0")


def _picked(self, vals, idx, spec, dim, keepdim=True):
    idx_t = _new(np.asarray(idx, np.int64))
    v = result(np.asarray(vals), spec, (self,), (idx_t,), (self._a.shape, dim, keepdim))
    return v, idx_t


def _sort_idx(a, d, descending=False):
    """Indices of a stable ascending sort along d (NaN last, as PyTorch)."""
    if a.ndim == 0:
        return np.zeros((), np.int64)
    return np.argsort(a, axis=d, kind="stable").astype(np.int64)


def _desc(a, d):
    """Indices of a stable descending sort along d (NaN first, as PyTorch)."""
    key = np.where(np.isnan(a), np.inf, a) if a.dtype.kind in "fV" else a
    order = np.argsort(key, axis=d, kind="stable")
    # reverse the ascending order, then restore stability within runs of equal values
    n = a.shape[d]
    rev = np.flip(order, d)
    vals = np.take_along_axis(key, rev, d)
    moved = np.moveaxis(rev, d, -1).copy()
    mvals = np.moveaxis(vals, d, -1)
    for pos in np.ndindex(moved.shape[:-1]):
        row, rv = moved[pos], mvals[pos]
        start = 0
        while start < n:
            end = start + 1
            while end < n and rv[end] == rv[start]:
                end += 1
            row[start:end] = np.sort(row[start:end])
            start = end
    return np.moveaxis(moved, -1, d).astype(np.int64)


@declare("sort", rules=[SortBackward0])
def sort(self, dim=-1, descending=False, stable=False):
    if type(dim) is bool:   # torch.sort(x, stable=..., dim=..., descending=...) positional quirk
        dim, descending = -1, dim
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    idx = _desc(a, d) if descending and a.ndim else _sort_idx(a, d)
    vals = np.take_along_axis(a, idx, d) if a.ndim else a.copy()
    v, i = _picked(self, vals, idx, SortBackward0, d)
    return returns("sort", ("values", "indices"))((v, i))


@declare("argsort", rules=[])
def argsort(self, dim=-1, descending=False, stable=False):
    return sort(self, dim, descending, stable)[1]


@declare("msort", rules=[])
def msort(self):
    return sort(self, 0)[0]


@declare("topk", rules=[TopkBackward0])
def topk(self, k, dim=-1, largest=True, sorted=True):
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    n = a.shape[d] if a.ndim else 1
    if k > n or k < 0:
        raise RuntimeError("selected index k out of range")
    idx = (_desc(a, d) if largest else _sort_idx(a, d)) if a.ndim else np.zeros((), np.int64)
    if a.ndim:
        idx = np.take(idx, np.arange(k), axis=d)
    vals = np.take_along_axis(a, idx, d) if a.ndim else a.copy()
    v, i = _picked(self, vals, idx, TopkBackward0, d)
    return returns("topk", ("values", "indices"))((v, i))


# ================================================================ median, kthvalue, mode
@rule("MedianBackward0", ("self",), ("grad spread evenly over the elements equal to the median",),
      saved=("self", "result"))
def MedianBackward0(grad, xp, self, result):
    m = xp.mask(xp.raw(self) == xp.raw(result), grad)
    return (m * (grad / m.sum()),)


def _lower_median_index(a, d, skipnan=False):
    key = a
    if a.dtype.kind in "fV":
        key = np.where(np.isnan(a), np.inf, a)
    order = np.argsort(key, axis=d, kind="stable")
    n = a.shape[d]
    if skipnan and a.dtype.kind in "fV":
        count = np.sum(~np.isnan(a), axis=d, keepdims=True)
        k = np.maximum(count - 1, 0) // 2
    else:
        k = np.full([1 if i == d else s for i, s in enumerate(a.shape)], (n - 1) // 2)
    pos = np.take_along_axis(order, k.astype(np.int64), d)
    if not skipnan and a.dtype.kind in "fV":   # a NaN in the row is the median
        has_nan = np.isnan(a).any(axis=d, keepdims=True)
        first_nan = np.argmax(np.isnan(a), axis=d, keepdims=True)
        pos = np.where(has_nan, first_nan, pos)
    return pos


def _median(self, dim, keepdim, skipnan, name, spec_all, spec_dim):
    a = self._a
    if dim is None:
        if a.size == 0:
            raise IndexError(f"{name}() input tensor cannot be empty")
        flat = a.reshape(-1)
        pos = _lower_median_index(flat, 0, skipnan)[0]
        out = np.asarray(flat[pos])
        return result(out, spec_all, (self,), (self, RESULT))
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    if a.ndim == 0:
        vals, idx = a.copy(), np.zeros((), np.int64)
    else:
        idx = _lower_median_index(a, d, skipnan)
        vals = np.take_along_axis(a, idx, d)
        if not keepdim:
            idx, vals = np.squeeze(idx, d), np.squeeze(vals, d)
    v, i = _picked(self, vals, idx, spec_dim, d, keepdim)
    return returns(name, ("values", "indices"))((v, i))


@declare("median", rules=[MedianBackward0, MedianBackward1])
def median(self, dim=None, keepdim=False):
    return _median(self, dim, keepdim, False, "median", MedianBackward0, MedianBackward1)


NanmedianBackward0 = rule("NanmedianBackward0", ("self",), ("grad spread evenly over the elements equal to the "
                                                             "median",), saved=("self", "result"))(
    lambda grad, xp, self, result: MedianBackward0.fn(grad, xp, self, result))


@declare("nanmedian", rules=[NanmedianBackward0, NanmedianBackward1])
def nanmedian(self, dim=None, keepdim=False):
    return _median(self, dim, keepdim, True, "nanmedian", NanmedianBackward0, NanmedianBackward1)


@declare("kthvalue", rules=[KthvalueBackward0])
def kthvalue(self, k, dim=-1, keepdim=False):
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    n = a.shape[d] if a.ndim else 1
    if not 1 <= k <= n:
        raise IndexError(f"kthvalue(): selected number k out of range for dimension {d}")
    if a.ndim == 0:
        vals, idx = a.copy(), np.zeros((), np.int64)
    else:
        order = _sort_idx(a, d)
        idx = np.take(order, [k - 1], axis=d)
        vals = np.take_along_axis(a, idx, d)
        if not keepdim:
            idx, vals = np.squeeze(idx, d), np.squeeze(vals, d)
    v, i = _picked(self, vals, idx, KthvalueBackward0, d, keepdim)
    return returns("kthvalue", ("values", "indices"))((v, i))


@declare("mode", rules=[ModeBackward0])
def mode(self, dim=-1, keepdim=False):
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    if a.ndim == 0:
        v, i = _picked(self, a.copy(), np.zeros((), np.int64), ModeBackward0, d, keepdim)
        return returns("mode", ("values", "indices"))((v, i))
    moved = np.moveaxis(a, d, -1)
    vals = np.empty(moved.shape[:-1], a.dtype)
    idx = np.empty(moved.shape[:-1], np.int64)
    for pos in np.ndindex(moved.shape[:-1]):
        row = moved[pos]
        uniq, counts = np.unique(row, return_counts=True)
        best = uniq[np.argmax(counts)]    # the smallest of the most frequent values
        vals[pos] = best
        idx[pos] = np.nonzero(row == best)[0][-1]
    if keepdim:
        vals, idx = np.expand_dims(vals, d), np.expand_dims(idx, d)
    v, i = _picked(self, vals, idx, ModeBackward0, d, keepdim)
    return returns("mode", ("values", "indices"))((v, i))


# ================================================================ amin, aminmax
@rule("AminBackward0", ("self",), ("grad spread evenly over the elements equal to the min along dim",),
      saved=("self", "result"), ctx=("dims", "keepdim"))
def AminBackward0(grad, xp, self, result, dims, keepdim):
    return extreme_backward(grad, xp, self, result, dims, keepdim)


def _dims(dim, ndim):
    if dim is None or dim == () or dim == []:
        return tuple(range(ndim))
    if isinstance(dim, int):
        return (wrap_dim(dim, ndim),)
    return tuple(wrap_dim(x, ndim) for x in dim)


@declare("amin", rules=[AminBackward0])
def amin(self, dim=(), keepdim=False):
    a = self._a
    dims = _dims(dim, a.ndim)
    check_nonempty("amin", a, None if dim in ((), None) or dim == [] else dims)
    out = np.asarray(np.min(a, axis=dims, keepdims=keepdim))
    return result(out, AminBackward0, (self,), (self, RESULT), (dims, keepdim))


@rule("AminmaxBackward0", ("self",), ("grad_min and grad_max spread evenly over the elements equal to min / max",),
      saved=("self",), ctx=("lo", "hi", "dims", "keepdim"), multi=True)
def AminmaxBackward0(grads, xp, self, lo, hi, dims, keepdim):
    total = None
    for g, r in zip(grads, (lo, hi)):
        if g is not None:
            part = extreme_backward(g, xp, self, r, dims, keepdim)[0]
            total = part if total is None else total + part
    return (total,)


@declare("aminmax", rules=[AminmaxBackward0])
def aminmax(self, *, dim=None, keepdim=False):
    a = self._a
    if dim is None:
        dims = tuple(range(a.ndim))
        lo, hi = np.asarray(a.min()), np.asarray(a.max())
        if keepdim:
            lo, hi = lo.reshape((1,) * a.ndim), hi.reshape((1,) * a.ndim)
    else:
        d = wrap_dim(dim, a.ndim)
        dims = (d,) if a.ndim else ()
        lo, hi = np.asarray(a.min(axis=d, keepdims=keepdim)), np.asarray(a.max(axis=d, keepdims=keepdim))
    outs = (_new(lo), _new(hi))
    if GRAD[0] and (self._fn is not None or self._rg) and a.dtype.kind == "f":
        node = Node(AminmaxBackward0, (edge_of(self),), (self,), (lo, hi, dims, keepdim))
        node.n_out = 2
        for k, o in enumerate(outs):
            o._fn, o._onr = node, k
    return returns("aminmax", ("min", "max"))(outs)


# ================================================================ scans
def _cumext(self, dim, which):
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    if a.ndim == 0:
        vals, idx = a.copy(), np.zeros((), np.int64)
    else:
        moved = np.moveaxis(a, d, -1)
        vals = np.empty_like(moved)
        idx = np.empty(moved.shape, np.int64)
        better = (lambda x, y: x >= y) if which == "cummax" else (lambda x, y: x <= y)
        for pos in np.ndindex(moved.shape[:-1]):
            row = moved[pos]
            best, at = row[0], 0
            for j in range(row.shape[0]):
                if better(row[j], best) or (row.dtype.kind in "fV" and np.isnan(row[j])) or \
                        (row.dtype.kind in "fV" and np.isnan(best)):
                    if not (row.dtype.kind in "fV" and np.isnan(best) and not np.isnan(row[j])):
                        best, at = row[j], j
                vals[pos + (j,)] = best
                idx[pos + (j,)] = at
        vals, idx = np.moveaxis(vals, -1, d), np.moveaxis(idx, -1, d)
    spec = CummaxBackward0 if which == "cummax" else CumminBackward0
    v, i = _picked(self, vals, idx, spec, d, True)
    return returns(which, ("values", "indices"))((v, i))


@declare("cummax", rules=[CummaxBackward0])
def cummax(self, dim):
    return _cumext(self, dim, "cummax")


@declare("cummin", rules=[CumminBackward0])
def cummin(self, dim):
    return _cumext(self, dim, "cummin")


def _cumprod_grad(x, g, d):
    """d/dx_i of sum_j g_j * prod_{k<=j} x_k, along d (exact with zeros)."""
    xm, gm = np.moveaxis(x, d, -1), np.moveaxis(g, d, -1)
    out = np.zeros_like(xm)
    n = xm.shape[-1]
    for pos in np.ndindex(xm.shape[:-1]):
        row, grow = xm[pos], gm[pos]
        for i in range(n):
            total = row.dtype.type(0)
            for j in range(i, n):
                p = row.dtype.type(1)
                for k in range(j + 1):
                    if k != i:
                        p = p * row[k]
                total = total + grow[j] * p
            out[pos + (i,)] = total
    return np.moveaxis(out, -1, d)


@rule("CumprodBackward0", ("self",), ("cumprod_backward(grad, self, dim, result)",), saved=("self",), ctx=("dim",))
def CumprodBackward0(grad, xp, self, dim):
    x = xp.raw(self)
    if x.ndim == 0:
        return (grad,)
    if xp.tensors and x.all():   # PyTorch's formula without zeros, in ops: create_graph differentiates it
        return (xp.reverse_cumsum(grad * self.cumprod(dim), dim) / self,)
    return (xp.constant(_cumprod_grad(x, xp.raw(grad), dim).astype(x.dtype)),)


@declare("cumprod", rules=[CumprodBackward0],
         inplace=unary_inplace(lambda self, dim, **kw: cumprod(self, dim, **kw)))
def cumprod(self, dim, *, dtype=None):
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    acc = a.dtype if a.dtype.kind in "fV" else np.int64
    if a.dtype == np.float32 and a.ndim:    # cpu_cum_base_kernel: the running product in double
        out = np.cumprod(a, axis=d, dtype=np.float64).astype(np.float32)
    else:
        out = np.cumprod(a, axis=d, dtype=acc) if a.ndim else a.astype(acc)
    if dtype is not None:
        out = out.astype(dtype.np)
    return result(np.asarray(out), CumprodBackward0, (self,), (self,), d)


@rule("LogcumsumexpBackward0", ("self",), ("logcumsumexp_backward(grad, self, result, dim)",),
      saved=("self", "result"), ctx=("dim",))
def LogcumsumexpBackward0(grad, xp, self, result, dim):
    x, r, g = xp.raw(self), xp.raw(result), xp.raw(grad)
    if x.ndim == 0:
        return (grad,)
    if xp.tensors:   # sum_{j>=i} g_j exp(x_i - r_j), in ops: create_graph differentiates it
        return (xp.exp(self) * xp.reverse_cumsum(grad * xp.exp(-result), dim),)
    xm, rm, gm = (np.moveaxis(v, dim, -1).astype(np.float64) for v in (x, r, g))
    n = xm.shape[-1]
    w = gm * np.exp(-rm)                       # sum_{j>=i} g_j exp(x_i - r_j)
    rev = np.flip(np.cumsum(np.flip(w, -1), -1), -1)
    out = np.exp(xm) * rev
    del n
    return (xp.constant(np.moveaxis(out, -1, dim).astype(x.dtype)),)


@declare("logcumsumexp", rules=[LogcumsumexpBackward0])
def logcumsumexp(self, dim):
    a = self._a
    d = wrap_dim(dim, a.ndim) if a.ndim else 0
    x = a.astype(np.float64)
    out = np.logaddexp.accumulate(x, axis=d) if a.ndim else x
    return result(np.asarray(out).astype(a.dtype), LogcumsumexpBackward0, (self,), (self, RESULT), d)


# ================================================================ nan-aware reductions, counts
@rule("NansumBackward0", ("self",), ("grad * self.isnan().logical_not()",), saved=("self",), ctx=("dims", "keepdim"))
def NansumBackward0(grad, xp, self, dims, keepdim):
    if dims is not None and not keepdim:
        grad = xp.unsqueeze_dims(grad, dims)
    x = xp.raw(self)
    return (xp.expand(grad, x.shape) * xp.mask(~np.isnan(x), grad),)


@declare("nansum", rules=[NansumBackward0])
def nansum(self, dim=None, keepdim=False, *, dtype=None):
    a = self._a
    dims = None if dim is None else _dims(dim, a.ndim)
    # PyTorch's nansum is sum's kernel (cascade_sum) with each NaN read as 0
    exact = None
    if a.dtype in (np.float32, np.float64):
        z = np.where(np.isnan(a), a.dtype.type(0), a)
        if a.flags.f_contiguous and not a.flags.c_contiguous:
            z = np.asfortranarray(z)        # the input's memory order
        exact = full_sum(z) if dims is None else dim_sum(z, tuple(sorted(dims))) if dims else None
        if exact is not None and keepdim:
            exact = np.expand_dims(exact, dims) if dims else np.reshape(exact, (1,) * a.ndim)
    out = np.asarray(np.nansum(a, axis=dims, keepdims=keepdim if dims is not None else False) if exact is None
                     else exact)
    if a.dtype.kind in "iub":
        out = out.astype(np.int64)
    else:
        out = out.astype(a.dtype)
    return result(out, NansumBackward0, (self,), (self,), (dims, keepdim))


@declare("nanmean", rules=[])
def nanmean(self, dim=None, keepdim=False, *, dtype=None):
    isnan = self.isnan().logical_not()
    count = isnan.sum(dim, keepdim) if dim is not None else isnan.sum()
    total = nansum(self, dim, keepdim)
    return total / count


_QUANTILE_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(name, self, q, dim, keepdim, interpolation, ignore_nan):
    """ATen's quantile_impl / quantile_compute (Sorting.cpp), op for op so that the graph holds
    PyTorch's nodes: sort the values (flattened, or with dim moved last), take the ranks
    q * (n - 1) in the input's dtype, gather below and above and lerp_ between them."""
    if type(q) is not Tensor:
        if not 0 <= q <= 1:
            raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {format(float(q), '.6g')}")
        q = _new(np.asarray(q, self._a.dtype))
    if interpolation not in _QUANTILE_MODES:
        raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    a = self._a
    if a.size == 0:
        raise RuntimeError(f"quantile() input tensor must be non-empty")
    if q._a.ndim > 1:
        raise RuntimeError(f"quantile() q must be a scalar or 1D tensor")
    if a.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"quantile() input tensor must be either float or double dtype")
    if q._a.dtype != a.dtype:
        raise RuntimeError(f"quantile() q tensor must be same dtype as the input tensor")
    out_shape = []
    if dim is not None and a.ndim > 0:
        d = wrap_dim(dim, a.ndim)
        out_shape = list(a.shape)
        if keepdim:
            out_shape[d] = 1
        else:
            del out_shape[d]
    elif keepdim:
        out_shape = [1] * a.ndim
    if dim is not None and a.ndim == 0:
        wrap_dim(dim, 1)
    qa = q._a
    if not bool(np.all((qa >= 0) & (qa <= 1))):
        raise RuntimeError(f"quantile() q values must be in the range [0, 1]")
    d = 0 if dim is None else wrap_dim(dim, max(a.ndim, 1))
    if dim is None:
        values = sort(self.flatten())[0]
    elif d == a.ndim - 1:
        values = sort(self)[0]
    else:
        values = sort(self.unsqueeze(-1).transpose(d, -1))[0]
    out_shape.insert(0, qa.size if qa.ndim else 1)
    values = values.view(*out_shape[1:], values.shape[-1])
    v = values._a
    qv = qa.reshape(-1)
    if ignore_nan:
        counts = (~np.isnan(v)).sum(-1, keepdims=True) - 1
        ranks = (qv * counts.astype(a.dtype)).astype(a.dtype)
        ranks[ranks < 0] = 0
    else:
        last = v.shape[-1] - 1
        ranks = np.broadcast_to(qv * a.dtype.type(last), v.shape[:-1] + qv.shape).copy()
        ranks[np.broadcast_to(np.isnan(v).any(-1, keepdims=True), ranks.shape)] = last
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)
    below = ranks.astype(np.int64)
    result_ = values.gather(-1, _new(below))
    if interpolation in ("linear", "midpoint"):
        weights = np.full_like(ranks, 0.5) if interpolation == "midpoint" else (ranks - below).astype(a.dtype)
        above = values.gather(-1, _new(np.ceil(ranks).astype(np.int64)))
        result_.lerp_(above, _new(weights))
    if qa.ndim == 0:
        return result_.squeeze_(-1)
    return result_.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)


def _quantile_variants(name, ignore_nan):
    """Tensor.NAME and torch.NAME: PyTorch's parser first (keepdim=1 or q=[0.5] are refused there)."""
    def bind(self, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
        if out is not None:
            raise NotImplementedError(f"{name}(out=...) is not available in gradrepl")
        return _quantile(name, self, q, dim, keepdim, interpolation, ignore_nan)

    def method(self, *args, **kwargs):
        wrong = signatures.check(name, "method", args, kwargs)
        if wrong is not None:
            raise wrong
        return bind(self, *args, **kwargs)

    def function(*args, **kwargs):
        wrong = signatures.check(name, "function", args, kwargs)
        if wrong is not None:
            raise wrong
        return bind(*args, **kwargs)
    method.__name__ = function.__name__ = name
    method.__wrapped__ = function.__wrapped__ = bind
    declare(name, method, torch_forward=function, rules=[])


_quantile_variants("quantile", False)
_quantile_variants("nanquantile", True)


@declare("count_nonzero", rules=[])
def count_nonzero(self, dim=None):
    a = self._a
    dims = None if dim is None else _dims(dim, a.ndim)
    return _new(np.asarray(np.count_nonzero(a, axis=dims), np.int64))


def _welford_stat_mean(xa, dim, correction, keepdim, take_sqrt):
    """var_mean / std_mean of a float tensor as PyTorch computes both (one Welford pass in
    double, ReduceOpsKernel.cpp std_var_kernel_impl, also over all elements): the two arrays,
    or None (then the separate var/std and mean stand)."""
    if xa.dtype.kind != "f" or xa.size == 0 or type(correction) not in (int, float):
        return None
    dims = None if dim is None else tuple(sorted(dims_tuple(dim, xa.ndim)))
    got = welford(xa, dims)
    if got is None:
        return None
    mean, m2, n = got
    with np.errstate(all="ignore"):
        stat = m2 / np.float64(builtins.max(0.0, n - correction))
        if take_sqrt:
            stat = np.sqrt(stat)
    stat, mean = np.asarray(stat, xa.dtype), np.asarray(mean, xa.dtype)
    if keepdim:
        axes = tuple(range(xa.ndim)) if dims is None else dims
        stat, mean = np.expand_dims(stat, axes), np.expand_dims(mean, axes)
    return stat, mean


def _stat_mean(which):
    def fn(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
        if type(input) is not Tensor:
            raise TypeError(f"{which}_mean(): argument 'input' (position 1) must be Tensor, not {pytype(input)}")
        kw = {}
        if correction is not None:
            kw["correction"] = correction
        elif unbiased is not None:
            kw["unbiased"] = unbiased
        stat = getattr(input, which)(dim, keepdim=keepdim, **kw) if dim is not None else getattr(input, which)(**kw)
        mean = input.mean(dim, keepdim) if dim is not None else input.mean()
        exact = _welford_stat_mean(input._a, dim, correction if correction is not None else int(unbiased is not False),
                                   keepdim, which == "std")
        if stat._fn is None:
            return (stat, mean) if exact is None else (_new(exact[0]), _new(exact[1]))
        # one node for both outputs, as PyTorch's StdMeanBackward0 / VarMeanBackward0
        dims, correction, keep = stat._fn.ctx
        stat, mean = (_new(stat._a), _new(mean._a)) if exact is None else (_new(exact[0]), _new(exact[1]))
        spec = StdMeanBackward0 if which == "std" else VarMeanBackward0
        node = Node(spec, (edge_of(input),), (input, stat) if which == "std" else (input,),
                    (tuple(input._a.shape), dims, correction, keep))
        node.n_out = 2
        stat._fn, stat._onr, mean._fn, mean._onr = node, 0, node, 1
        if which == "std":
            node.saved = (input, SavedOutput(stat, node))
            node.saved_outputs = (1,)
        return (stat, mean)
    fn.__name__ = which + "_mean"
    return fn


def _mean_part(g, xp, shape, dims, keepdim):
    if dims is None:
        return MeanBackward0.fn(g, xp, shape)[0]
    return MeanBackward1.fn(g, xp, shape, dims, keepdim)[0]


def _sum_parts(a, b):
    return b if a is None else (a if b is None else a + b)


@rule("StdMeanBackward0", ("self",), ("std_backward(grads[0], self, result0) + mean_backward(grads[1])",),
      saved=("self", "result0"), ctx=("shape", "dims", "correction", "keepdim"), multi=True)
def StdMeanBackward0(grads, xp, self, result0, shape, dims, correction, keepdim):
    g_std, g_mean = grads
    part = None if g_std is None else StdBackward0.fn(g_std, xp, self, result0, dims, correction, keepdim)[0]
    return (_sum_parts(part, None if g_mean is None else _mean_part(g_mean, xp, shape, dims, keepdim)),)


@rule("VarMeanBackward0", ("self",), ("var_backward(grads[0], self) + mean_backward(grads[1])",),
      saved=("self",), ctx=("shape", "dims", "correction", "keepdim"), multi=True)
def VarMeanBackward0(grads, xp, self, shape, dims, correction, keepdim):
    g_var, g_mean = grads
    part = None if g_var is None else VarBackward0.fn(g_var, xp, self, dims, correction, keepdim)[0]
    return (_sum_parts(part, None if g_mean is None else _mean_part(g_mean, xp, shape, dims, keepdim)),)


declare("std_mean", _stat_mean("std"), method=False, rules=[StdMeanBackward0])
declare("var_mean", _stat_mean("var"), method=False, rules=[VarMeanBackward0])
