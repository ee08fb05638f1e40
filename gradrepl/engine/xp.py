"""The two array namespaces every derivative rule computes with.

A rule is written once against `xp`: ARRAYS for an ordinary backward (NumPy arrays, the
fast path) and TENSORS when create_graph=True (Tensors, so that the backward pass is
itself recorded and second derivatives come from the same rules). The backward engine
(autograd.py) receives both from here and never imports the Tensor class.
"""
import operator

import numpy as np

from gradrepl.engine import autograd, kernels
from gradrepl.engine.creation import zeros as _zeros
from gradrepl.engine.mkl import vml_kernel
from gradrepl.engine.ops.common import is_reduced
from gradrepl.engine.ops.convert import convert
from gradrepl.engine.ops.elementwise import _f32_kernel, _f64, where as _where
from gradrepl.engine.ops.linalg import blas_product
from gradrepl.engine.ops.indexing import getitem_raw, index_backward
from gradrepl.engine.ops.reduce import cumsum_array
from gradrepl.engine.ops.registry import ABSENT
from gradrepl.engine.ops.shape import cat as _cat
from gradrepl.engine.summation import dim_sum, full_sum
from gradrepl.engine.tensor import Tensor, _new, wrap


_add_reduce = np.add.reduce


def _product(a, b):
    """A backward formula's matrix product, with MKL's bits as PyTorch's mm/bmm/mv get them."""
    if a.dtype == b.dtype and is_reduced(a):      # float16/bfloat16: in float32, rounded once
        return np.matmul(a.astype(np.float32), b.astype(np.float32)).astype(a.dtype)
    out = blas_product(a, b) if a.dtype == b.dtype else None
    return np.matmul(a, b) if out is None else out


def _sum_to(g, shape):
    if g.shape == shape:
        return g
    if is_reduced(g):       # float16/bfloat16: summed in float32, rounded once (PyTorch's opmath)
        return _sum_to(g.astype(np.float32), shape).astype(g.dtype)
    if g.dtype.kind in "fV" and all(n == 1 for n in shape):
        exact = full_sum(g)     # to one element: PyTorch's full-sum order
        if exact is not None:
            return np.asarray(exact, g.dtype).reshape(shape)
    lead = g.ndim - len(shape)
    gshape = g.shape
    axes = tuple(range(lead)) + tuple([i + lead for i, s in enumerate(shape) if s == 1 and gshape[i + lead] != 1])
    if not axes:
        return g.reshape(shape)
    exact = dim_sum(g, axes) if g.dtype.kind in "fV" else None   # PyTorch's order
    if exact is None:
        exact = np.asarray(g.sum(axis=axes))
    return exact.reshape(shape)


_min_reduce = np.minimum.reduce
_F32 = np.dtype(np.float32)
try:
    from gradrepl.engine._kernels import add_rows as _add_rows_c     # optional C twin
except ImportError:
    _add_rows_c = None


def _add_rows(z, rows, g):
    """np.add.at(z, (rows,), g) for non-negative row numbers, element by element through
    the flat arrays (NumPy's fast one-dimensional add.at): each element of z receives its
    values in the same order, so the sums are the same bits. float32 through the C twin (a
    NaN in the result: done again by NumPy, whose NaN bits those are)."""
    inner = z[0].size
    if (_add_rows_c is not None and z.dtype == _F32 and g.dtype == _F32 and rows.dtype == np.int64
            and inner and z.flags.c_contiguous):
        if not _add_rows_c(rows.size, inner, np.ascontiguousarray(rows), np.ascontiguousarray(g), z):
            return
        z[...] = 0
    at = rows.reshape(-1, 1) * inner + np.arange(inner)
    np.add.at(z.reshape(-1), at.reshape(-1), g.reshape(-1))


def _along(idx, dim):
    """The full advanced index that puts values at idx along dim (np.put_along_axis's)."""
    grids = list(np.indices(idx.shape, sparse=True))
    grids[dim] = idx
    return tuple(grids)


def _is_basic(index):
    items = index if isinstance(index, tuple) else (index,)
    return all(isinstance(i, (int, slice, type(None), type(Ellipsis))) for i in items)


class ARRAYS:
    """Backward arithmetic on raw NumPy arrays."""

    tensors = False
    val = staticmethod(operator.attrgetter("_a"))   # a saved Tensor (or SavedOutput) as its array
    wrap = staticmethod(wrap)

    @staticmethod
    def is_tensor(x):
        return type(x) is Tensor

    @staticmethod
    def raw(x):
        return x

    constant = raw
    sum_to = staticmethod(_sum_to)
    # the forward kernels: MKL's VML as in PyTorch's CPU build (float64-then-float32 without MKL)
    exp = staticmethod(vml_kernel("exp", _f64(np.exp)))
    log = staticmethod(vml_kernel("log", _f64(np.log)))
    sin = staticmethod(vml_kernel("sin", _f64(np.sin)))
    cos = staticmethod(vml_kernel("cos", _f64(np.cos)))
    sign = staticmethod(np.sign)
    abs = staticmethod(np.abs)
    floor = staticmethod(np.floor)
    sqrt = staticmethod(vml_kernel("sqrt", np.sqrt))

    @staticmethod
    def rsqrt(x):
        return 1 / np.sqrt(x)     # PyTorch's CPU rsqrt: 1 / sqrt, rounded twice in the dtype

    cosh = staticmethod(_f32_kernel(kernels.coshf, np.cosh, kernels.unary64("cosh")))
    sinh = staticmethod(_f32_kernel(kernels.sinhf, np.sinh, kernels.unary64("sinh")))
    matmul = staticmethod(_product)
    bmm = staticmethod(_product)
    outer = staticmethod(np.outer)

    @staticmethod
    def numel(x):
        return x.size

    @staticmethod
    def zeros_like(g):
        return np.zeros_like(g)

    @staticmethod
    def depends(g, *sources):
        return g

    @staticmethod
    def where(c, a, b):
        out = np.where(c, a, b)
        dt = a.dtype if hasattr(a, "dtype") else b.dtype
        return out.astype(dt, copy=False)

    @staticmethod
    def zero_where(c, g):
        return np.where(c, 0, g).astype(g.dtype, copy=False)

    @staticmethod
    def at_least(x, below, floor):
        return np.maximum(x, floor).astype(x.dtype)

    @staticmethod
    def mask(c, like):
        return c.astype(like.dtype)

    @staticmethod
    def expand(g, shape):
        return np.broadcast_to(g, shape)

    @staticmethod
    def reshape(g, shape):
        return np.reshape(g, shape)

    @staticmethod
    def squeeze_dim(g, dim, shape):
        return np.reshape(g, shape)

    @staticmethod
    def sum(g, dims, keepdim):
        if type(g) is np.ndarray:   # np.sum's own call, without its Python wrapper
            return _add_reduce(g, axis=dims, keepdims=keepdim)
        return np.sum(g, axis=dims, keepdims=keepdim)

    @staticmethod
    def unsqueeze_dims(g, dims):
        return np.expand_dims(g, tuple(sorted(dims)))

    @staticmethod
    def permute(g, perm):
        return np.transpose(g, perm)

    @staticmethod
    def swap(g, d0, d1):
        return np.swapaxes(g, d0, d1)

    @staticmethod
    def mT(a):
        return a.swapaxes(-1, -2)

    @staticmethod
    def flip(g, dims):
        return np.flip(g, dims)

    @staticmethod
    def reverse_cumsum(g, dim):
        return np.flip(cumsum_array(np.flip(g, dim), dim), dim)

    @staticmethod
    def zeros(shape, like):
        return np.zeros(shape, like.dtype)

    @staticmethod
    def scatter(shape, index, g):
        """zeros(shape) with g added at index (the backward of indexing)."""
        z = np.zeros(shape, g.dtype)
        if type(index) is tuple and len(index) == 1 and type(index[0]) is np.ndarray and len(shape) > 1:
            rows = index[0]             # x[long tensor] (an embedding lookup): rows added in order
            if (rows.dtype.kind == "i" and rows.size and g.shape == rows.shape + tuple(shape[1:])
                    and _min_reduce(rows, axis=None) >= 0):
                _add_rows(z, rows, g)
                return z
        if _is_basic(index):
            z[index] = g
        else:
            np.add.at(z, index, g)
        return z

    @staticmethod
    def put_along(shape, dim, idx, g):
        z = np.zeros(shape, g.dtype)
        np.put_along_axis(z, idx, g, axis=dim)
        return z

    @staticmethod
    def scatter_add_along(shape, dim, idx, g):
        z = np.zeros(shape, g.dtype)
        np.add.at(z, _along(idx, dim), g)
        return z

    @staticmethod
    def index(g, index):
        return g[index]

    @staticmethod
    def zero_at(g, index):
        out = np.array(g, copy=True)
        out[index] = 0
        return out

    @staticmethod
    def split(g, dim, sizes):
        return np.split(g, np.cumsum(sizes)[:-1], axis=dim)

    @staticmethod
    def cat(gs, dim):
        return np.concatenate(gs, axis=dim)

    @staticmethod
    def cast(g, dtype):
        return g.astype(dtype.np, copy=False)


def _as_tensor(c):
    return c if type(c) is Tensor else wrap(np.asarray(c))


class TENSORS:
    """Backward arithmetic on Tensors: the backward pass is itself recorded (create_graph)."""

    tensors = True
    wrap = staticmethod(wrap)
    is_tensor = ARRAYS.is_tensor

    @staticmethod
    def val(t):
        """A saved value as a Tensor; the op's own saved output gets its node back as grad_fn."""
        if t is ABSENT:
            return None
        if type(t) is autograd.Packed:
            return t.tensor()
        if type(t) is autograd.SavedOutput:
            out = _new(t._a)
            out._ver = t._ver
            out._fn = t._node()
            out._onr = t._onr
            return out
        return t

    @staticmethod
    def raw(x):
        return x._a if type(x) is Tensor else x

    constant = wrap

    @staticmethod
    def numel(x):
        return x.numel()

    @staticmethod
    def zeros_like(g):
        """zeros_like(grad): untracked, as PyTorch's formulas that say so."""
        return _zeros(*g.shape, dtype=g.dtype)

    @staticmethod
    def depends(g, *sources):
        """g, made to depend (with derivative 0) on saved tensors that require grad, as
        PyTorch's backward kernels (threshold_backward, nll_loss_backward) take them as
        inputs: under create_graph their result requires grad whenever one of them does."""
        if g.requires_grad:
            return g
        for s in sources:
            if s is not None and s.requires_grad:
                return g + s.sum() * 0
        return g

    @staticmethod
    def sum_to(g, shape):
        if tuple(g.shape) == tuple(shape):
            return g
        lead = g.ndim - len(shape)
        dims = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and g.shape[i + lead] != 1)
        if dims:
            g = g.sum(dims, keepdim=True)
        return g.reshape(shape) if lead else g   # at::sum_to views only to drop leading dims

    exp = staticmethod(lambda t: t.exp())
    log = staticmethod(lambda t: t.log())
    sin = staticmethod(lambda t: t.sin())
    cos = staticmethod(lambda t: t.cos())
    sign = staticmethod(lambda t: t.sgn())   # PyTorch's formulas say self.sgn() (SgnBackward0)
    abs = staticmethod(lambda t: t.abs())
    floor = staticmethod(lambda t: t.floor())
    sqrt = staticmethod(lambda t: t.sqrt())
    rsqrt = staticmethod(lambda t: t.rsqrt())
    cosh = staticmethod(lambda t: t.cosh())
    sinh = staticmethod(lambda t: t.sinh())

    @staticmethod
    def where(c, a, b):
        return _where(_as_tensor(c), a, b)

    @staticmethod
    def zero_where(c, g):
        return _where(_as_tensor(c), g * 0, g)

    @staticmethod
    def at_least(x, below, floor):
        return x + TENSORS.mask(below, x) * floor

    @staticmethod
    def mask(c, like):
        return convert(_as_tensor(c), like.dtype)

    @staticmethod
    def expand(g, shape):
        return g.expand(*shape)

    @staticmethod
    def reshape(g, shape):
        return g.reshape(shape)

    @staticmethod
    def squeeze_dim(g, dim, shape):
        return g.squeeze(dim)

    @staticmethod
    def sum(g, dims, keepdim):
        if dims is None:
            return g.sum()
        return g.sum(dims, keepdim=keepdim)

    @staticmethod
    def unsqueeze_dims(g, dims):
        for d in sorted(dims):
            g = g.unsqueeze(d)
        return g

    @staticmethod
    def permute(g, perm):
        return g.permute(*perm)

    @staticmethod
    def swap(g, d0, d1):
        return g.transpose(d0, d1)

    @staticmethod
    def mT(a):
        return a.t() if a.ndim == 2 else a.transpose(-1, -2)   # PyTorch's mm formulas: mat2.t()

    @staticmethod
    def matmul(a, b):
        return a.matmul(b)

    @staticmethod
    def bmm(a, b):
        return a.bmm(b)

    @staticmethod
    def outer(a, b):
        return a.reshape(-1, 1) * b

    @staticmethod
    def flip(g, dims):
        return g.flip(dims)

    @staticmethod
    def reverse_cumsum(g, dim):
        return g.flip(dim).cumsum(dim).flip(dim)

    @staticmethod
    def zeros(shape, like):
        return _zeros(*shape, dtype=like.dtype)

    @staticmethod
    def scatter(shape, index, g):
        return index_backward(g, shape, index)

    @staticmethod
    def put_along(shape, dim, idx, g):
        return index_backward(g, shape, _along(idx, dim))

    @staticmethod
    def scatter_add_along(shape, dim, idx, g):
        return index_backward(g, shape, _along(idx, dim))

    @staticmethod
    def index(g, index):
        return getitem_raw(g, index)

    @staticmethod
    def zero_at(g, index):
        m = np.ones(g.shape, bool)
        m[index] = False
        return g * wrap(m.astype(g._a.dtype))

    @staticmethod
    def split(g, dim, sizes):
        return list(g.split(list(sizes), dim))

    @staticmethod
    def cat(gs, dim):
        return _cat(gs, dim)

    @staticmethod
    def cast(g, dtype):
        return g.to(dtype)


autograd.use_spaces(ARRAYS, TENSORS)
