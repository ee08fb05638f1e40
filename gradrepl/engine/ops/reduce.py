"""Reductions and normalisations: sum, mean, prod, max/min, norm, var/std, softmax, cumsum."""
import builtins
import math

import numpy as np

from gradrepl.engine import kernels
from gradrepl.engine.autograd import GRAD
from gradrepl.engine.ops.common import RESULT, in_float32, is_reduced, result
from gradrepl.engine.ops.elementwise import _pow_scalar, maximum, minimum
from gradrepl.engine.ops.inplace import unary_inplace
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.ops.shape import cat
from gradrepl.engine.printing import return_types_repr
from gradrepl.engine.rounding import fma64
from gradrepl.engine.summation import GRAIN, THREADS, dim_sum, full_sum, iter_prod, iteration_order, norm2_rows
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import dims_opt, dims_tuple, legacy_scalar, pytype, warn, wrap_dim

try:
    from gradrepl.engine._kernels import welford as _welford_c     # optional C twin
except ImportError:
    _welford_c = None


_add = np.add


def _keepdim(name, dim, keepdim):
    """keepdim of a full reduction: PyTorch has no overload taking keepdim without dim."""
    if keepdim is None:
        return False
    if type(keepdim) is not bool:
        raise TypeError(f"{name}(): argument 'keepdim' must be bool, not {pytype(keepdim)}")
    if dim is None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got (keepdim=bool, ), "
                        "but expected one of:")
    return keepdim


def _unreduce(grad, xp, shape, dims, keepdim):
    """A reduced gradient put back to the input's shape (unsqueezed, then expanded)."""
    if not keepdim:
        grad = xp.unsqueeze_dims(grad, dims)
    return xp.expand(grad, shape)


# ================================================================ sum, mean
@rule("SumBackward0", ("self",), ("grad.expand(self.sizes())",), ctx=("shape",))
def SumBackward0(grad, xp, shape):
    return (xp.expand(grad, shape),)


@rule("SumBackward1", ("self",), ("grad.unsqueeze(dim).expand(self.sizes())",), ctx=("shape", "dims", "keepdim"))
def SumBackward1(grad, xp, shape, dims, keepdim):
    return (_unreduce(grad, xp, shape, dims, keepdim),)


def reduce_sum(a, dim=None, keepdim=False, dtype=None):
    xa = a._a
    acc = dtype.np if dtype is not None else (np.int64 if xa.dtype.kind in "biu" else xa.dtype)
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        exact = full_sum(xa) if xa.dtype == acc else None
        out = np.asarray(np.sum(xa, dtype=acc) if exact is None else exact)
        if keepdim:
            out = out.reshape((1,) * xa.ndim)
        if dim is None and not keepdim:
            return result(out, SumBackward0, (a,), (), xa.shape)
        return result(out, SumBackward1, (a,), (), (xa.shape, tuple(range(xa.ndim)), keepdim))
    dims = dims_tuple(dim, xa.ndim)
    exact = dim_sum(xa, dims) if xa.dtype == acc else None
    if exact is None:
        out = np.asarray(np.sum(xa, axis=dims, dtype=acc, keepdims=keepdim))
    else:
        out = np.expand_dims(exact, dims) if keepdim else exact
    return result(out, SumBackward1, (a,), (), (xa.shape, dims, keepdim))


@declare("sum", rules=[SumBackward0, SumBackward1])
def sum(self, dim=None, keepdim=None, dtype=None):
    if dtype is None and is_reduced(self._a):
        return in_float32(reduce_sum, self, dim, _keepdim("sum", dim, keepdim))
    return reduce_sum(self, dim, _keepdim("sum", dim, keepdim), dtype)


@rule("MeanBackward0", ("self",), ("grad.expand(self.sizes()) / self.numel()",), ctx=("shape",))
def MeanBackward0(grad, xp, shape):
    return (_divided(xp, xp.expand(grad / int(np.prod(shape)), shape)),)


def _divided(xp, g):
    """PyTorch divides the expanded gradient: a new contiguous tensor, not an expanded one
    (element-wise backward kernels after it take their scalar loop on a transposed input)."""
    return g if xp.tensors else np.ascontiguousarray(g)


@rule("MeanBackward1", ("self",), ("grad.unsqueeze(dim).expand(self.sizes()) / (number of elements reduced)",),
      ctx=("shape", "dims", "keepdim"))
def MeanBackward1(grad, xp, shape, dims, keepdim):
    n = int(np.prod([shape[d] for d in dims])) if dims else 1
    return (_divided(xp, _unreduce(grad / n, xp, shape, dims, keepdim)),)


def reduce_mean(a, dim=None, keepdim=False, dtype=None):
    xa = a._a
    if dtype is not None:
        if not dtype.is_floating_point:
            raise RuntimeError("mean(): could not infer output dtype. Optional dtype must be either a floating point "
                               f"or complex dtype. Got: {legacy_scalar(dtype)}")
        xa = xa.astype(dtype.np)
    elif xa.dtype.kind not in "fV":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
            f"Got: {legacy_scalar(a.dtype)}")
    if dim is None:
        exact = full_sum(xa)
        if exact is not None:   # PyTorch: the sum in its order, then one division
            out = np.asarray(exact / xa.dtype.type(xa.size) if xa.size else np.nan, dtype=xa.dtype)
        else:
            out = np.asarray(np.mean(xa), dtype=xa.dtype)
        return result(out, MeanBackward0, (a,), (), xa.shape)
    dims = dims_tuple(dim, xa.ndim)
    exact = dim_sum(xa, dims)
    with np.errstate(invalid="ignore", divide="ignore"):
        if exact is None:
            out = np.asarray(np.mean(xa, axis=dims, keepdims=keepdim), dtype=xa.dtype)
        else:   # PyTorch: the sum over the dims in its order, then one division
            count = int(np.prod([xa.shape[d] for d in dims], dtype=np.int64))
            out = np.asarray(exact / xa.dtype.type(count), dtype=xa.dtype)
            if keepdim:
                out = np.expand_dims(out, dims)
    return result(out, MeanBackward1, (a,), (), (xa.shape, dims, keepdim))


@declare("mean", rules=[MeanBackward0, MeanBackward1], bare=True)
def mean(self, dim=None, keepdim=None, dtype=None):
    if dtype is None and is_reduced(self._a):
        return in_float32(reduce_mean, self, dim, _keepdim("mean", dim, keepdim))
    return reduce_mean(self, dim, _keepdim("mean", dim, keepdim), dtype)


# ================================================================ prod
def _prod_others(self, result, dim, xp):
    """The product of every other element (along dim, or of all): result / self without zeros."""
    raw = xp.raw(self)
    if not (raw == 0).any():
        return result / self
    if xp.tensors:   # differentiable (second derivatives): one masked product per position
        flat = self.reshape(-1) if dim is None else self
        axis = 0 if dim is None else dim
        parts = []
        for i in range(flat.shape[axis]):
            hit = np.zeros(flat.shape, bool)
            hit[(slice(None),) * axis + (i,)] = True
            parts.append(xp.where(hit, 1.0, flat).prod(axis, keepdim=True))
        return cat(parts, axis).reshape(tuple(raw.shape))
    flat = raw if dim is not None else raw.reshape(-1)
    axis = dim if dim is not None else 0
    moved = np.moveaxis(flat, axis, -1)
    out = np.empty_like(moved)
    for i in range(moved.shape[-1]):
        out[..., i] = np.prod(np.delete(moved, i, axis=-1), axis=-1)
    return np.moveaxis(out, -1, axis).reshape(raw.shape)


@rule("ProdBackward0", ("self",), ("grad * (product of all other elements)",), saved=("self", "result"))
def ProdBackward0(grad, xp, self, result):
    return (grad * _prod_others(self, result, None, xp),)


@rule("ProdBackward1", ("self",), ("grad * (product of the other elements along dim)",), saved=("self", "result"),
      ctx=("dim", "keepdim"))
def ProdBackward1(grad, xp, self, result, dim, keepdim):
    if not keepdim:
        grad = xp.unsqueeze_dims(grad, (dim,))
        result = xp.unsqueeze_dims(result, (dim,))
    return (grad * _prod_others(self, result, dim, xp),)


@declare("prod", rules=[ProdBackward0, ProdBackward1], bare=True)
def prod(self, dim=None, keepdim=None, dtype=None):
    keepdim = _keepdim("prod", dim, keepdim)
    xa = self._a
    acc = np.int64 if xa.dtype.kind in "biu" else xa.dtype
    if dim is None:
        exact = iter_prod(xa, tuple(range(xa.ndim))) if xa.dtype == acc else None
        out = np.asarray(np.prod(xa, dtype=acc) if exact is None else exact)
        return result(out, ProdBackward0, (self,), (self, RESULT), None)
    d = wrap_dim(dim, xa.ndim)
    exact = iter_prod(xa, (d,)) if xa.dtype == acc else None
    if exact is None:
        out = np.asarray(np.prod(xa, axis=d, dtype=acc, keepdims=keepdim))
    else:
        out = np.asarray(np.expand_dims(exact, d) if keepdim else exact)
    return result(out, ProdBackward1, (self,), (self, RESULT), (d, keepdim))


# ================================================================ max, min, amax, argmax
class ReturnTypes(tuple):
    """torch.return_types.max(values=..., indices=...)."""

    __slots__ = ()
    _name = "max"

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self):
        return return_types_repr(self._name, [("values", repr(self[0])), ("indices", repr(self[1]))])


class MaxReturn(ReturnTypes):
    __slots__ = ()
    _name = "max"


class MinReturn(ReturnTypes):
    __slots__ = ()
    _name = "min"


def _spread_over_extremes(grad, xp, self, result):
    m = xp.mask(xp.raw(self) == xp.raw(result), grad)
    return (m * (grad / m.sum()),)


MaxBackward1 = rule("MaxBackward1", ("self",), ("grad spread evenly over the elements equal to the max",),
                    saved=("self", "result"))(_spread_over_extremes)
MinBackward1 = rule("MinBackward1", ("self",), ("grad spread evenly over the elements equal to the min",),
                    saved=("self", "result"))(_spread_over_extremes)


def _place_at_indices(grad, xp, indices, shape, dim, keepdim):
    if not shape:  # max over dim 0 of a 0-d tensor: the value itself
        return (xp.reshape(grad, ()),)
    idx = xp.raw(indices)
    if not keepdim:
        grad = xp.unsqueeze_dims(grad, (dim,))
        idx = np.expand_dims(idx, dim)
    return (xp.put_along(shape, dim, idx, grad),)


MaxBackward0 = rule("MaxBackward0", ("self",), ("grad placed at indices (value_selecting_reduction_backward)",),
                    saved=("indices",), ctx=("shape", "dim", "keepdim"))(_place_at_indices)
MinBackward0 = rule("MinBackward0", ("self",), ("grad placed at indices (value_selecting_reduction_backward)",),
                    saved=("indices",), ctx=("shape", "dim", "keepdim"))(_place_at_indices)


def check_nonempty(name, xa, dims):
    """PyTorch's refusal of a max/min/argmax-like reduction over no elements: over all of an empty
    tensor (dims None), or along a dim of size 0."""
    if dims is None:
        if xa.size == 0:
            if name.startswith("arg"):
                raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
            raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        return
    for d in dims:
        if xa.ndim and xa.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def reduce_max(a, dim, keepdim, which):
    xa = a._a
    fn = np.max if which == "max" else np.min
    check_nonempty(which, xa, None if dim is None else (wrap_dim(dim, xa.ndim),))
    if dim is None:
        out = np.asarray(fn(xa))
        return result(out, MaxBackward1 if which == "max" else MinBackward1, (a,), (a, RESULT), None)
    d = wrap_dim(dim, xa.ndim)
    arg = np.argmax if which == "max" else np.argmin
    idx = np.asarray(arg(xa, axis=d, keepdims=keepdim) if xa.ndim else np.zeros((), np.int64)).astype(np.int64)
    vals = np.asarray(fn(xa, axis=d, keepdims=keepdim) if xa.ndim else xa.copy())
    idx_t = _new(idx)
    v = result(vals, MaxBackward0 if which == "max" else MinBackward0, (a,), (idx_t,), (xa.shape, d, keepdim))
    return (MaxReturn if which == "max" else MinReturn)((v, idx_t))


@declare("max", rules=[MaxBackward0, MaxBackward1])
def max(self, dim=None, keepdim=None):
    if isinstance(dim, Tensor):
        return maximum(self, dim)
    return reduce_max(self, dim, _keepdim("max", dim, keepdim), "max")


@declare("min", rules=[MinBackward0, MinBackward1])
def min(self, dim=None, keepdim=None):
    if isinstance(dim, Tensor):
        return minimum(self, dim)
    return reduce_max(self, dim, _keepdim("min", dim, keepdim), "min")


@rule("AmaxBackward0", ("self",), ("grad spread evenly over the elements equal to the max along dim",),
      saved=("self", "result"), ctx=("dims", "keepdim"))
def AmaxBackward0(grad, xp, self, result, dims, keepdim):
    return extreme_backward(grad, xp, self, result, dims, keepdim)


def extreme_backward(grad, xp, self, result, dims, keepdim):
    """amax's and amin's rule: grad spread evenly over the elements equal to the result."""
    raw_r = xp.raw(result)
    if not keepdim:
        grad = xp.unsqueeze_dims(grad, dims)
        raw_r = np.expand_dims(raw_r, dims)
    hit = xp.raw(self) == raw_r
    count = np.sum(hit, axis=dims, keepdims=True).astype(raw_r.dtype)
    return (grad / xp.mask(count, grad) * xp.mask(hit, grad),)


@declare("amax", rules=[AmaxBackward0])
def amax(self, dim=(), keepdim=False):
    if type(keepdim) is not bool:
        raise TypeError(f"amax(): argument 'keepdim' must be bool, not {pytype(keepdim)}")
    xa = self._a
    dims = tuple(range(xa.ndim)) if dim in ((), None) or dim == [] else dims_tuple(dim, xa.ndim)
    check_nonempty("amax", xa, None if dim in ((), None) or dim == [] else dims)
    out = np.asarray(np.max(xa, axis=dims, keepdims=keepdim))
    return result(out, AmaxBackward0, (self,), (self, RESULT), (dims, keepdim))


def _arg(a, dim, keepdim, fn):
    xa = a._a
    name = "argmax" if fn is np.argmax else "argmin"
    if xa.dtype.kind == "b":
        raise RuntimeError(f"{name}(): does not support bool input")
    check_nonempty(name, xa, None if dim is None else (wrap_dim(dim, xa.ndim),))
    if dim is None:
        return _new(np.asarray(fn(xa), dtype=np.int64))
    d = wrap_dim(dim, xa.ndim)
    return _new(np.asarray(fn(xa, axis=d, keepdims=keepdim), dtype=np.int64))


@declare("argmax")
def argmax(self, dim=None, keepdim=False):
    return _arg(self, dim, keepdim, np.argmax)


@declare("argmin")
def argmin(self, dim=None, keepdim=False):
    return _arg(self, dim, keepdim, np.argmin)


@declare("all")
def all(self, dim=None, keepdim=False):
    return _new(np.asarray(np.all(self._a, axis=dims_opt(dim, self._a.ndim), keepdims=keepdim)))


@declare("any")
def any(self, dim=None, keepdim=False):
    return _new(np.asarray(np.any(self._a, axis=dims_opt(dim, self._a.ndim), keepdims=keepdim)))


# ================================================================ norm
@rule("LinalgVectorNormBackward0", ("self",),
      ("grad * (self / result)  (ord 2; see linalg_vector_norm_backward for others)",),
      saved=("self", "result"), ctx=("dims", "keepdim", "p"))
def LinalgVectorNormBackward0(grad, xp, self, result, dims, keepdim, p):
    if p == 0:
        return (None,)
    raw_a, raw_r = xp.raw(self), xp.raw(result)
    if dims is not None and not keepdim:
        grad = xp.unsqueeze_dims(grad, dims)
        result = xp.unsqueeze_dims(result, dims)
        raw_r = np.expand_dims(raw_r, tuple(sorted(dims)))
    if p == 1:
        return (xp.sign(self) * grad,)
    if p in (float("inf"), -float("inf")):
        hit = np.abs(raw_a) == raw_r
        count = np.sum(hit, axis=dims, keepdims=True).astype(raw_a.dtype)
        return (xp.sign(self) * ((grad / xp.mask(count, grad)) * xp.mask(hit, grad)),)
    safe = result + xp.mask(raw_r == 0, result)  # 1 where the norm is 0: those grads are masked to 0 anyway
    zero_norm = raw_r == 0
    if p == 2:     # grad * (self / norm).masked_fill_(norm == 0, 0), in that order
        return (grad * _zero_where(xp, zero_norm, self / safe),)
    absa = xp.abs(self)
    if p < 1:      # sgn(self) * |self| ** (p - 1) masked where self == 0, times grad * norm ** (1 - p)
        with np.errstate(divide="ignore", invalid="ignore"):
            scaled = xp.sign(self) * _zero_where(xp, raw_a == 0, _pow_kernel(absa, p - 1))
        return (scaled * grad * _pow_kernel(result, 1 - p),)
    scale = _zero_where(xp, zero_norm, grad / _pow_kernel(safe, p - 1))   # masked where norm == 0
    if p < 2:
        return (xp.sign(self) * _pow_kernel(absa, p - 1) * scale,)
    return (self * _pow_kernel(absa, p - 2) * scale,)


def _pow_kernel(x, b):
    """x.pow(b) with PyTorch's kernel (its special-cased exponents, Sleef's powf) outside create_graph."""
    if isinstance(x, (np.ndarray, np.generic)):
        return _pow_scalar(np.asarray(x), b)
    return x ** b


def _zero_where(xp, c, g):
    """g.masked_fill(c, 0): +0 (not g * 0) where c holds."""
    if not np.any(c):
        return g
    return xp.where(np.broadcast_to(c, g.shape), xp.zeros_like(g), g)


# ATen's at::norm (what pairwise_distance calls) records NormBackward1: the same derivative
NormBackward1 = rule("NormBackward1", ("self",), LinalgVectorNormBackward0.formulas, saved=("self", "result"),
                     ctx=("dims", "keepdim", "p"))(LinalgVectorNormBackward0.fn)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    dim = builtins.max(x1._a.ndim, x2._a.ndim) - 1     # ATen: norm(x1 - x2 + eps, p, last dim)
    return vector_norm(x1 - x2 + eps, p, dim, keepdim, NormBackward1)


declare("pairwise_distance", pairwise_distance, method=False, functional=True, rules=[NormBackward1])


def vector_norm(self, p, dim, keepdim, spec):
    xa = self._a
    if xa.dtype.kind not in "fV":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. "
                           f"Got {legacy_scalar(self.dtype)}")
    dims = None if dim is None else dims_tuple(dim, xa.ndim)
    p = 2.0 if p == "fro" else float(p)
    with np.errstate(all="ignore"):
        absa = np.abs(xa)
        if p == 2:
            out = _lastdim_norm(xa, dims, keepdim, norm2_rows)
            if out is None:
                out = _ordered_norm(xa, dims, keepdim, 2)
            if out is None:
                out = np.sqrt(np.sum(xa * xa, axis=dims, keepdims=keepdim))
        elif p == 0:
            out = np.sum(xa != 0, axis=dims, keepdims=keepdim)
        elif p == 1:
            out = _lastdim_norm(xa, dims, keepdim, _abs_sum_rows)
            if out is None:
                out = _ordered_norm(xa, dims, keepdim, 1)
            if out is None:
                out = np.sum(absa, axis=dims, keepdims=keepdim)
        elif p == float("inf"):
            out = np.max(absa, axis=dims, keepdims=keepdim)
        elif p == -float("inf"):
            out = np.min(absa, axis=dims, keepdims=keepdim)
        else:
            out = _ordered_norm(xa, dims, keepdim, p)
            if out is None:
                out = np.sum(absa ** xa.dtype.type(p), axis=dims, keepdims=keepdim) ** xa.dtype.type(1.0 / p)
    out = np.asarray(out, dtype=xa.dtype)
    return result(out, spec, (self,), (self, RESULT), (dims, keepdim, p))


def _lastdim_norm(xa, dims, keepdim, rows_fn):
    """PyTorch's order where the reduced elements are the innermost contiguous ones (all of
    them, or the trailing dims of a C-contiguous tensor): rows_fn reduces each row of the
    tensor seen as (kept elements, reduced elements). None elsewhere (NumPy's order then)."""
    nd = xa.ndim
    if not (xa.dtype in (np.float32, np.float64) and xa.size and xa.flags.c_contiguous
            and (dims is None or (dims and sorted(dims) == list(range(nd - len(dims), nd))))):
        return None
    inner = xa.size if dims is None else math.prod(xa.shape[nd - len(dims):])
    if xa.size == inner and inner >= GRAIN and rows_fn is not norm2_rows:
        return None     # one output from many elements: PyTorch splits the reduction over threads
    out = rows_fn(xa.reshape(-1, inner))
    if dims is None:
        return out.reshape((1,) * nd if keepdim else ())
    kept = xa.shape[:nd - len(dims)]
    return out.reshape(kept + (1,) * len(dims) if keepdim else kept)


def _abs_sum_rows(rows):
    """NormOneOps through binary_kernel_reduce: |x| added one by one along each row."""
    return np.add.accumulate(np.abs(rows), axis=1)[:, -1]


# ================================================================ var, std
def _var_grad(grad, xp, self, dims, correction, keepdim):
    """PyTorch's var_backward, operand by operand: (2.0 / dof) * grad * (self - self.mean(dim)),
    the mean in PyTorch's summation order (the same bits as PyTorch's gradient)."""
    shape = self.shape
    axes = tuple(range(len(shape))) if dims is None else dims
    dof = int(np.prod([shape[d] for d in axes])) - correction
    if dims is not None and not keepdim:
        grad = xp.unsqueeze_dims(grad, axes)
    if xp.tensors:
        mean = self.mean(axes, keepdim=True) if dims is not None else self.mean()
    else:
        mean = (_new(self).mean(axes, keepdim=True) if dims is not None else _new(self).mean())._a
    scale = 2.0 / dof if dof else math.inf
    return grad * scale * (self - mean)


@rule("VarBackward0", ("self",), ("grad * 2 * (self - self.mean(dim)) / (N - correction)",), saved=("self",),
      ctx=("dims", "correction", "keepdim"))
def VarBackward0(grad, xp, self, dims, correction, keepdim):
    return (_var_grad(grad, xp, self, dims, correction, keepdim),)


@rule("StdBackward0", ("self",), ("grad * (self - self.mean(dim)) / ((N - correction) * result)",),
      saved=("self", "result"), ctx=("dims", "correction", "keepdim"))
def StdBackward0(grad, xp, self, result, dims, correction, keepdim):
    raw_r = xp.raw(result)
    if dims is not None and not keepdim:
        result = xp.unsqueeze_dims(result, dims)
        grad = xp.unsqueeze_dims(grad, dims)
        raw_r = np.expand_dims(raw_r, dims)
    # where the std is 0 the gradient is 0 (PyTorch masks it), not inf * 0
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = xp.where(raw_r == 0, grad * 0, grad / (2 * result))
    return (_var_grad(scaled, xp, self, dims, correction, True),)


def _ordered_rows(xa, dims, contiguous=True):
    """The elements of each output of a reduction over `dims` (None: all) as the rows of a
    C-contiguous (outputs, K) array in TensorIterator's order (reduced dims innermost,
    ordered by the input's strides), the kept shape, and whether the reduced dims coalesce
    into one contiguous run (is_reduce_lastdim); None for negative strides. With
    contiguous=False the rows may be a view of xa (copied only where a reshape needs it)."""
    if builtins.any(st < 0 for st in xa.strides):
        return None
    red = tuple(range(xa.ndim)) if dims is None else dims
    kept = [d for d in range(xa.ndim) if d not in red]
    out_strides = [0] * xa.ndim
    step = 1
    for d in reversed(kept):
        out_strides[d] = step
        step *= xa.shape[d]
    perm = [d for d in iteration_order(xa.shape, out_strides, xa.strides) if d in red]
    inner = list(reversed(perm)) + [d for d in red if d not in perm]
    rows = np.transpose(xa, kept + inner)
    rows = (np.ascontiguousarray(rows) if contiguous else rows).reshape(math.prod(xa.shape[d] for d in kept), -1)
    run = xa.itemsize
    lastdim = bool(perm)
    for d in perm:
        lastdim = lastdim and xa.strides[d] == run
        run *= xa.shape[d]
    return rows, tuple(xa.shape[d] for d in kept), lastdim


def _welford_rows(xa, dims):
    """_ordered_rows as float64 rows (K, outputs), and the kept shape."""
    got = _ordered_rows(xa, dims, contiguous=_welford_c is None)
    if got is None:
        return None
    return got[0].T.astype(np.float64, copy=False), got[1]


_POWF = kernels.libm_float2("powf", np.power)


def _pow(a, b):
    """std::pow in a's dtype: libm's powf for float32, pow for float64 (NumPy's power)."""
    out = np.asarray(a)
    if out.dtype == np.float32:
        return _POWF(out, np.full(out.shape, b, np.float32))
    return np.power(out, b)


def _ordered_norm(xa, dims, keepdim, p):
    """The p-norms of float tensors (p = 1 and 2 where the reduced elements are not the
    innermost of a C-contiguous tensor; other finite nonzero p everywhere)
    (ReduceOpsKernel.cpp, norm_kernel_tensor_iterator_impl): the 2-norm of one contiguous
    run per output vectorised (norm2_rows), otherwise binary_kernel_reduce with NormOneOps /
    NormTwoOps / NormOps: |x|, x*x (not fused) or std::pow(|x|, p) in the dtype (libm's powf
    for float32) added one by one in the dtype in TensorIterator's order, one output of
    GRAIN elements or more in one chunk per thread, the chunks added in order; NormOps then
    takes std::pow(sum, 1 / p), 1 / p in the dtype. None if not reproduced."""
    if xa.dtype not in (np.float32, np.float64) or not xa.size:
        return None
    got = _ordered_rows(xa, dims)
    if got is None:
        return None
    rows, kept, lastdim = got
    m, k = rows.shape
    if p == 2 and lastdim:
        out = norm2_rows(rows)
    else:
        if p in (1, 2):
            terms = np.abs(rows) if p == 1 else rows * rows
        else:
            terms = _pow(np.abs(rows), xa.dtype.type(p))
        if m == 1 and k >= GRAIN and THREADS["n"] > 1:
            tasks = builtins.min(THREADS["n"], -(-k // GRAIN))
            chunk = -(-k // tasks)
            acc = xa.dtype.type(0)
            for t in range(tasks):
                acc = acc + _add.accumulate(terms[0, t * chunk:(t + 1) * chunk])[-1]
            out = np.asarray([acc])
        else:
            out = _add.accumulate(terms, axis=1)[:, -1]
        if p == 2:
            out = np.sqrt(out)
        elif p != 1:
            out = _pow(out, xa.dtype.type(1) / xa.dtype.type(p))
    red = tuple(range(xa.ndim)) if dims is None else dims
    out = out.reshape(kept)
    return np.expand_dims(out, red) if keepdim else out


def _welford_seq(rows):
    """WelfordOps::reduce over the rows of (K, M) float64 values, one after the other, in
    double: (mean, m2). The C twin (kernels' welford) does the same operations in order; a
    NaN anywhere goes the NumPy way (its NaN bits)."""
    if _welford_c is not None and rows.shape[0] and rows.shape[1]:
        mean, m2 = np.empty(rows.shape[1]), np.empty(rows.shape[1])
        if not _welford_c(rows.T, mean, m2):
            return mean, m2
    return _welford_numpy(rows)


def _welford_numpy(rows):
    if rows.shape[1] == 1:      # one output: Python floats (doubles) are faster than NumPy here
        mean = m2 = 0.0
        for i, x in enumerate(rows[:, 0].tolist()):
            delta = x - mean
            mean = mean + delta / float(i + 1)
            m2 = m2 + delta * (x - mean)
        return np.array([mean]), np.array([m2])
    mean = np.zeros(rows.shape[1])
    m2 = np.zeros(rows.shape[1])
    for i in range(rows.shape[0]):
        delta = rows[i] - mean
        mean = mean + delta / float(i + 1)
        m2 = m2 + delta * (rows[i] - mean)
    return mean, m2


def welford(xa, dims):
    """PyTorch's var_mean / std_mean and var/std over dims of float tensors (ReduceOpsKernel.cpp,
    std_var_kernel_impl: binary_kernel_reduce with WelfordOps in double): (mean, m2, n) per
    output as float64, or None. One output of GRAIN elements or more is split among the
    threads (parallel_for's chunks) and the threads' accumulators combined in order."""
    got = _welford_rows(xa, dims)
    if got is None:
        return None
    rows, kept = got
    k, m = rows.shape
    threads = THREADS["n"]
    if m == 1 and k >= GRAIN and threads > 1:
        tasks = builtins.min(threads, -(-k // GRAIN))
        chunk = -(-k // tasks)
        mean, m2, nf = np.zeros(1), np.zeros(1), 0.0
        for t in range(tasks):
            part = rows[t * chunk:(t + 1) * chunk]
            bmean, bm2 = _welford_seq(part)
            bn = float(part.shape[0])
            if nf == 0:
                mean, m2, nf = bmean, bm2, bn
                continue
            delta = bmean - mean
            count = nf + bn
            ratio = bn / count
            mean, m2, nf = mean + delta * ratio, m2 + bm2 + delta * delta * nf * ratio, count
    elif k >= GRAIN and threads > 1:
        return None
    else:
        mean, m2 = _welford_seq(rows)
    return mean.reshape(kept), m2.reshape(kept), float(k)


def _var_all(xa, correction):
    """The variance behind x.var() / x.std() of a whole float tensor (ReduceOps.cpp, std_var_all_cpu): the mean in
    the tensor's dtype (PyTorch's full-sum order), then (x - mean)**2 added in double one by one
    in memory order, in one chunk per thread from GRAIN elements on; None if not reproduced."""
    exact = full_sum(xa)
    got = _welford_rows(xa, None)
    if exact is None or got is None or xa.size == 0:
        return None
    mean = float(exact / xa.dtype.type(xa.size))
    flat = got[0][:, 0]
    n, threads = flat.size, THREADS["n"]
    perm = iteration_order(xa.shape, [0] * xa.ndim, xa.strides)
    sizes = []      # the dims after coalescing, innermost first: the 2-d loop's rows are the first
    for i, d in enumerate(perm):
        if i and xa.strides[d] == xa.strides[perm[i - 1]] * xa.shape[perm[i - 1]]:
            sizes[-1] *= xa.shape[d]
        else:
            sizes.append(xa.shape[d])
    size0, size1 = (sizes + [1, 1])[:2]
    tasks = 1 if n <= GRAIN or threads == 1 else builtins.min(threads, -(-n // GRAIN))
    chunk = -(-n // tasks)
    sq = (flat - mean) ** 2
    total = 0.0
    for t in range(tasks):
        offset, end = t * chunk, builtins.min(n, (t + 1) * chunk)
        part = 0.0
        while offset < end:     # serial_for_each's 2-d steps: the rest of a row, then whole rows
            step = builtins.min(size0 - offset % size0, end - offset)
            if step == size0:
                step = builtins.min(size1 - offset // size0 % size1, (end - offset) // size0) * size0
            part = part + (0.0 + float(np.add.accumulate(sq[offset:offset + step])[-1]))
            offset += step
        total = total + part
    with np.errstate(all="ignore"):
        return np.float64(total) / np.float64(builtins.max(0.0, n - correction))


def _var(a, dim, unbiased, keepdim, correction, std):
    xa = a._a
    if xa.dtype.kind not in "fV":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if correction is None:
        correction = 0 if unbiased is False else 1
    dims = None if dim is None else dims_tuple(dim, xa.ndim)
    n = xa.size if dims is None else int(np.prod([xa.shape[d] for d in dims]))
    if n - correction <= 0:
        warn("UserWarning", f"{'std' if std else 'var'}(): degrees of freedom is <= 0. Correction should be "
             "strictly less than the reduction factor (input numel divided by output numel).")
    exact = None
    if xa.dtype.kind == "f" and n:
        if dims is None or n == xa.size:    # one output: std_var_all_cpu
            exact = _var_all(xa, correction)
            if exact is not None and dims is not None:
                exact = np.asarray(exact).reshape([1 if d in dims else 1 for d in range(xa.ndim)] if keepdim else
                                                  [xa.shape[d] for d in range(xa.ndim) if d not in dims])
        elif xa.dtype == np.float64:    # float32: the double result of NumPy rounds the same
            got = welford(xa, dims)
            if got is not None:
                with np.errstate(all="ignore"):
                    exact = got[1] / np.float64(builtins.max(0.0, got[2] - correction))
                if keepdim:
                    exact = np.expand_dims(exact, dims)
    with np.errstate(all="ignore"):
        # PyTorch accumulates var/std of float32 in double (Welford) and rounds once at the end
        if exact is not None:
            out = exact
        elif n - correction > 0:
            out = np.var(xa.astype(np.float64), axis=dims, ddof=correction, keepdims=keepdim)
        else:   # PyTorch divides by max(0, n - correction): nan or inf (NumPy would warn in its own words)
            x64 = xa.astype(np.float64)
            if n == 0:
                out = np.sum(x64, axis=dims, keepdims=keepdim) * np.nan
            else:
                dev = x64 - np.sum(x64, axis=dims, keepdims=True) / n
                out = np.sum(dev * dev, axis=dims, keepdims=keepdim) / 0.0
        if std:
            out = np.sqrt(out)
        out = np.asarray(out, dtype=xa.dtype)
    if std:
        return result(out, StdBackward0, (a,), (a, RESULT), (dims, correction, keepdim))
    return result(out, VarBackward0, (a,), (a,), (dims, correction, keepdim))


@declare("std", rules=[StdBackward0])
def std(self, dim=None, unbiased=None, keepdim=False, correction=None):
    return _var(self, dim, unbiased, keepdim, correction, std=True)


@declare("var", rules=[VarBackward0])
def var(self, dim=None, unbiased=None, keepdim=False, correction=None):
    return _var(self, dim, unbiased, keepdim, correction, std=False)


# ================================================================ softmax, log_softmax, logsumexp, cumsum
def _softmax_bw(grad_output, output, dim):
    if (_lastdim_float32(output, dim) and grad_output.dtype == np.float32 and grad_output.shape == output.shape
            and (output.size > output.shape[-1] or output.shape[-1] < kernels.LANES or kernels.LANES == 8)):
        # (on AVX512 one row of 16 or more goes through another kernel in PyTorch, not reproduced)
        return kernels.softmax_backward_lastdim(grad_output, output)
    if _dim_float32(grad_output, output):
        return kernels.softmax_backward_dim(grad_output, output, wrap_dim(dim, output.ndim))
    if _lastdim64(grad_output, output, dim):
        # _vec_softmax_backward: sum(grad * out) in Vectorized<double>'s lanes (map2_reduce_all)
        g, y = kernels._rows(grad_output), kernels._rows(output)
        total = kernels.row_sums64(g * y)[:, None]
        return ((g - total) * y).reshape(output.shape)
    dims = (dim,) if output.ndim else None   # a 0-d tensor: its one element
    return output * (grad_output - np.add.reduce(grad_output * output, axis=dims, keepdims=True))


def _log_softmax_bw(grad_output, output, dim):
    if _lastdim_float32(output, dim) and grad_output.dtype == np.float32 and grad_output.shape == output.shape:
        return kernels.log_softmax_backward_lastdim(grad_output, output)
    if _dim_float32(grad_output, output):
        return kernels.log_softmax_backward_dim(grad_output, output, wrap_dim(dim, output.ndim))
    dims = (dim,) if output.ndim else None
    if _lastdim64(grad_output, output, dim):
        # _vec_log_softmax_backward: the sum in Vectorized<double>'s lanes, then
        # grad - exp(out) * sum as one multiply-add (GCC's fnmadd), Sleef's exp
        g = kernels._rows(grad_output)
        total = kernels.row_sums64(g)[:, None]
        ey = kernels.sleef64["exp"](kernels._rows(output))
        if kernels._HAS_C64:
            return kernels._fma64c(-ey, total, g).reshape(output.shape)
        if np.isfinite(total).all() and np.isfinite(g).all() and (np.abs(total) < 1e300).all():
            return fma64(-ey, total, g).reshape(output.shape)
        return (g - ey * total).reshape(output.shape)
    return grad_output - np.exp(output) * np.add.reduce(grad_output, axis=dims, keepdims=True)


@rule("SoftmaxBackwardDataBackward0", ("grad_output", "output"),
      ("_softmax_backward_data(grad, output, dim)",
       "grad * (grad_output - (grad_output * output).sum(dim)) - grad_output * (grad * output).sum(dim)"),
      saved=("grad_output", "output"), ctx=("dim",))
def SoftmaxBackwardDataBackward0(grad, xp, node, grad_output, output, dim):
    e = node.edges
    g_out = g_self = None
    if e[0] is not None:
        g_out = softmax_backward_data(grad, output, dim) if xp.tensors else _softmax_bw(grad, output, dim)
    if e[1] is not None:
        dims = (dim,) if xp.raw(output).ndim else None
        g_self = (grad * (grad_output - xp.sum(grad_output * output, dims, True))
                  - grad_output * xp.sum(grad * output, dims, True))
    return (g_out, g_self)


def softmax_backward_data(grad_output, output, dim):
    return result(_softmax_bw(grad_output._a, output._a, dim), SoftmaxBackwardDataBackward0, (grad_output, output),
                  (grad_output, output), dim)


@rule("LogSoftmaxBackwardDataBackward0", ("grad_output", "output"),
      ("grad - (grad * output.exp()).sum(dim)", "-grad_output.sum(dim) * output.exp() * grad"),
      saved=("grad_output", "output"), ctx=("dim",))
def LogSoftmaxBackwardDataBackward0(grad, xp, node, grad_output, output, dim):
    e = node.edges
    dims = (dim,) if xp.raw(output).ndim else None
    return (None if e[0] is None else grad - xp.sum(grad * xp.exp(output), dims, True),
            None if e[1] is None else -xp.sum(grad_output, dims, True) * xp.exp(output) * grad)


def log_softmax_backward_data(grad_output, output, dim):
    return result(_log_softmax_bw(grad_output._a, output._a, dim), LogSoftmaxBackwardDataBackward0,
                  (grad_output, output), (grad_output, output), dim)


declare("softmax_backward_data", softmax_backward_data, method=False, function=False,
        rules=[SoftmaxBackwardDataBackward0])
declare("log_softmax_backward_data", log_softmax_backward_data, method=False, function=False,
        rules=[LogSoftmaxBackwardDataBackward0])


@rule("SoftmaxBackward0", ("self",), ("_softmax_backward_data(grad, result, dim)",), saved=("result",), ctx=("dim",))
def SoftmaxBackward0(grad, xp, result, dim):
    return (softmax_backward_data(grad, result, dim) if xp.tensors else _softmax_bw(grad, result, dim),)


@rule("LogSoftmaxBackward0", ("self",), ("_log_softmax_backward_data(grad, result, dim)",), saved=("result",),
      ctx=("dim",))
def LogSoftmaxBackward0(grad, xp, result, dim):
    return (log_softmax_backward_data(grad, result, dim) if xp.tensors else _log_softmax_bw(grad, result, dim),)


def _lastdim64(grad_output, output, dim):
    """softmax's backward over the last dim of float64 tensors of one shape."""
    return (output.dtype == np.float64 and grad_output.dtype == np.float64 and grad_output.shape == output.shape
            and output.ndim and dim in (output.ndim - 1, -1) and output.size)


def _dim_float32(grad_output, output):
    """softmax's backward over another dim of float32 tensors, as PyTorch's kernel."""
    return (output.dtype == np.float32 and grad_output.dtype == np.float32 and output.ndim
            and output.size and grad_output.shape == output.shape)


def _lastdim_float32(arr, d):
    """PyTorch's softmax kernels over the last dim of a float32 tensor are emulated exactly
    (engine/kernels.py); other dims and dtypes compute in NumPy's order."""
    return arr.dtype == np.float32 and arr.ndim and d in (arr.ndim - 1, -1) and arr.size


def _softmax_dtype_check(a, d, name):
    if a._a.dtype.kind not in "fV":
        kernel = f"{name}_lastdim_kernel_impl" if d == builtins.max(a._a.ndim - 1, 0) else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{legacy_scalar(a.dtype)}\'')


def _softmax_operand(arr):
    """The array softmax computes on (float32 for integers, float16 and bfloat16) and the
    result's dtype."""
    if arr.dtype.kind not in "fV":
        return arr.astype(np.float32), np.float32
    return (arr.astype(np.float32) if is_reduced(arr) else arr), arr.dtype


def softmax_kernel(a, dim, dtype=None):
    xa, rd = _softmax_operand(a._a)
    d = wrap_dim(dim, xa.ndim)
    if dtype is None:
        _softmax_dtype_check(a, d, "softmax")
    if rd == np.float32 and _lastdim_float32(xa, d):
        return result(kernels.softmax_lastdim(xa), SoftmaxBackward0, (a,), (RESULT,), d)
    if xa.dtype == rd and rd in (np.float32, np.float64) and xa.size and xa.ndim and d != xa.ndim - 1:
        return result(kernels.softmax_dim(xa, d), SoftmaxBackward0, (a,), (RESULT,), d)
    m = np.maximum.reduce(xa, axis=d, keepdims=True) if xa.size else 0
    if xa.dtype == np.float64 and rd == np.float64 and xa.ndim and d == xa.ndim - 1 and xa.size:
        # _vec_softmax_lastdim: Sleef's exp of x - max, the sum in Vectorized<double>'s lanes,
        # its reciprocal, then each exponential times it
        e = kernels.sleef64["exp"](kernels._rows(xa - m))
        inv = 1 / kernels.row_sums64(e)
        return result((e * inv[:, None]).reshape(xa.shape), SoftmaxBackward0, (a,), (RESULT,), d)
    e = np.exp(xa - m)
    out = np.asarray(e / np.add.reduce(e, axis=d, keepdims=True), dtype=xa.dtype).astype(rd, copy=False)
    return result(out, SoftmaxBackward0, (a,), (RESULT,), d)


def log_softmax_kernel(a, dim, dtype=None):
    xa, rd = _softmax_operand(a._a)
    d = wrap_dim(dim, xa.ndim)
    if dtype is None:
        _softmax_dtype_check(a, d, "log_softmax")
    if rd == np.float32 and _lastdim_float32(xa, d):
        return result(kernels.log_softmax_lastdim(xa), LogSoftmaxBackward0, (a,), (RESULT,), d)
    if xa.dtype == rd and rd in (np.float32, np.float64) and xa.size and xa.ndim and d != xa.ndim - 1:
        return result(kernels.log_softmax_dim(xa, d), LogSoftmaxBackward0, (a,), (RESULT,), d)
    # the ufuncs' own reductions: what np.max / np.sum call, without their Python wrappers
    m = np.maximum.reduce(xa, axis=d, keepdims=True) if xa.size else 0
    s = xa - m
    if xa.dtype == np.float64 and rd == np.float64 and xa.ndim and d == xa.ndim - 1 and xa.size:
        # _vec_log_softmax_lastdim's sum of the exponentials in Vectorized<double>'s lanes,
        # Sleef's exp and log (vec::map_reduce_all, vec::map)
        total = kernels.row_sums64(kernels.sleef64["exp"](kernels._rows(s))).reshape(s.shape[:-1] + (1,))
        out = s - kernels.sleef64["log"](total)
        return result(out, LogSoftmaxBackward0, (a,), (RESULT,), d)
    else:
        total = np.add.reduce(np.exp(s), axis=d, keepdims=True)
    if is_reduced(a._a):   # PyTorch rounds the sum and its log to the reduced dtype
        log_total = np.log(total.astype(rd)).astype(rd).astype(xa.dtype)
    else:
        log_total = np.log(total)
    out = np.asarray(s - log_total, dtype=xa.dtype).astype(rd, copy=False)
    return result(out, LogSoftmaxBackward0, (a,), (RESULT,), d)


def _implicit_dim(input):
    return 0 if input.ndim in (0, 1, 3) else 1


def functional_softmax(input, dim=None, dtype=None):
    return softmax_kernel(input, _implicit_dim(input) if dim is None else dim)


def functional_log_softmax(input, dim=None, dtype=None):
    return log_softmax_kernel(input, _implicit_dim(input) if dim is None else dim)


@declare("softmax", rules=[SoftmaxBackward0], bare=True, functional=functional_softmax)
def softmax(self, dim=None, dtype=None):
    if dim is None:
        raise TypeError('softmax() missing 1 required positional arguments: "dim"')
    return softmax_kernel(self, dim)


@declare("log_softmax", rules=[LogSoftmaxBackward0], bare=True, functional=functional_log_softmax)
def log_softmax(self, dim=None, dtype=None):
    if dim is None:
        raise TypeError('log_softmax() missing 1 required positional arguments: "dim"')
    return log_softmax_kernel(self, dim)


def cumsum_array(a, d):
    """PyTorch's cpu_cum_base_kernel for cumsum: the running sum kept in acc_type (double for
    float32), each output rounded from it; it starts at +0 (a leading -0. becomes 0.)."""
    if a.dtype.kind not in "fc":
        return np.cumsum(a, axis=d, dtype=np.int64)
    if a.dtype == np.float32:
        out = np.cumsum(a, axis=d, dtype=np.float64).astype(np.float32)
    else:
        out = np.cumsum(a, axis=d, dtype=a.dtype)
    out += 0
    return out


@rule("CumsumBackward0", ("self",), ("grad.flip(dim).cumsum(dim).flip(dim)",), ctx=("dim",))
def CumsumBackward0(grad, xp, dim):
    if xp.raw(grad).ndim == 0:      # the cumulative sum of a 0-d tensor is the tensor
        return (grad,)
    return (xp.reverse_cumsum(grad, dim),)


@declare("cumsum", rules=[CumsumBackward0], inplace=unary_inplace(lambda self, dim, **kw: cumsum(self, dim, **kw)))
def cumsum(self, dim):
    if is_reduced(self._a):
        return in_float32(cumsum, self, dim)
    d = wrap_dim(dim, self._a.ndim)
    out = cumsum_array(self._a, d)
    out = out.reshape(self._a.shape)  # a 0-d tensor stays 0-d
    return result(out, CumsumBackward0, (self,), (), d)


@rule("LogsumexpBackward0", ("self",), ("grad * (self - result).exp()",), saved=("self", "result"),
      ctx=("dims", "keepdim"))
def LogsumexpBackward0(grad, xp, self, result, dims, keepdim):
    if not keepdim:
        grad = xp.unsqueeze_dims(grad, dims)
        result = xp.unsqueeze_dims(result, dims)
    return (grad * xp.exp(self - result),)


@declare("logsumexp", rules=[LogsumexpBackward0])
def logsumexp(self, dim, keepdim=False):
    if self._a.dtype.kind not in "fV":  # integer and bool inputs give a float result
        return logsumexp(self.float(), dim, keepdim)
    prev = GRAD[0]
    GRAD[0] = False
    try:
        m = amax(self, dim, keepdim=True)
        e = (self - m).exp()
        xa = self._a
        if not xa.flags.c_contiguous and xa.ndim > 1 and builtins.all(st > 0 for st in xa.strides):
            # PyTorch's exp keeps the dim order of a transposed, permuted or sliced input (its
            # output is contiguous in the input's order of strides), and the sum's order follows
            order = sorted(range(xa.ndim), key=lambda d: -xa.strides[d])
            laid = np.empty([xa.shape[d] for d in order], e._a.dtype).transpose(np.argsort(order))
            laid[...] = e._a
            e = _new(laid)
        r = e.sum(dim, keepdim=True).log() + m
        out = r if keepdim else r.squeeze(dim)
    finally:
        GRAD[0] = prev
    return result(out._a, LogsumexpBackward0, (self,), (self, RESULT), (dims_tuple(dim, self._a.ndim), keepdim))

