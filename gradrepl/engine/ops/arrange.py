"""Arranging and combining tensors: diagonals and triangles, stacking helpers, moving,
rolling and tiling, batched and multi-operand products (bmm, einsum, kron, cross, ...).

Where PyTorch implements an op by composing others (hstack is cat, tile is repeat,
movedim is permute, einsum is permute/bmm/view, diff and kron are slicing and
arithmetic), gradrepl composes the same ops, so grad_fn names and gradients agree.
"""
import itertools

import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import GRAD, Node, edge_of
from gradrepl.engine.ops.common import RESULT, as_tensor, check_leaf_inplace, result
from gradrepl.engine.ops.linalg import matrix_product
from gradrepl.engine.ops.reduce import LinalgVectorNormBackward0
from gradrepl.engine.ops.inplace import CopySlices, unary_inplace
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.ops.shape import UnsafeViewBackward0, cat, stack
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import broadcast_shape, shape_args, shape_list, warn, wrap_dim
from gradrepl.limits import LIMITS, check_numel


def _t(x):
    return x if type(x) is Tensor else as_tensor(x)


def _value_of(fn, *tensors):
    """fn's array, computed from detached inputs: an op composed of others whose own node
    (PyTorch's, e.g. AddmvBackward0) is recorded by the caller, with the same values."""
    return fn(*[t.detach() if type(t) is Tensor else t for t in tensors])._a


# ================================================================ diagonals, triangles, trace
def _diag_index(shape, offset, d1, d2):
    n1, n2 = shape[d1], shape[d2]
    n = max(0, min(n1 + min(offset, 0), n2 - max(offset, 0)))
    rows = np.arange(n) + max(-offset, 0)
    cols = np.arange(n) + max(offset, 0)
    return rows, cols


def _moved(ndim, d1, d2):
    rest = [i for i in range(ndim) if i not in (d1, d2)]
    return rest + [d1, d2]


@rule("DiagonalBackward0", ("self",), ("grad placed on the diagonal of zeros(self.sizes())",),
      ctx=("shape", "offset", "dim1", "dim2"))
def DiagonalBackward0(grad, xp, shape, offset, dim1, dim2):
    perm = _moved(len(shape), dim1, dim2)
    moved_shape = tuple(shape[p] for p in perm)
    rows, cols = _diag_index(shape, offset, dim1, dim2)
    placed = xp.scatter(moved_shape, (Ellipsis, rows, cols), grad)
    return (xp.permute(placed, tuple(int(i) for i in np.argsort(perm))),)


DiagonalBackward0_copy = rule("DiagonalBackward0_copy", ("self",),
                              ("grad placed on the diagonal of zeros(self.sizes())",),
                              ctx=("shape", "offset", "dim1", "dim2"), key="DiagonalBackward0_copy")(
    DiagonalBackward0.fn)


def _diagonal(self, offset, dim1, dim2, spec):
    a = self._a
    if a.ndim < 2:
        raise RuntimeError(f"diagonal dimensions requires ndim larger than 1, but got ndim = {a.ndim}")
    d1, d2 = wrap_dim(dim1, a.ndim), wrap_dim(dim2, a.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    moved = np.transpose(a, _moved(a.ndim, d1, d2))
    rows, cols = _diag_index(a.shape, offset, d1, d2)
    return result(np.ascontiguousarray(moved[..., rows, cols]), spec, (self,), (), (a.shape, offset, d1, d2))


@declare("diagonal", rules=[DiagonalBackward0])
def diagonal(self, offset=0, dim1=0, dim2=1):
    return _diagonal(self, offset, dim1, dim2, DiagonalBackward0)


@rule("DiagEmbedBackward0", ("self",), ("grad.diagonal(offset, dim1, dim2)",), ctx=("offset", "n"))
def DiagEmbedBackward0(grad, xp, offset, n):
    rows, cols = _diag_index((n + abs(offset), n + abs(offset)), offset, 0, 1)
    return (xp.index(grad, (Ellipsis, rows, cols)),)


def _embed(self, offset):
    a = self._a
    n = a.shape[-1]
    m = n + abs(offset)
    out = np.zeros(a.shape[:-1] + (m, m), a.dtype)
    rows, cols = _diag_index((m, m), offset, 0, 1)
    out[..., rows, cols] = a
    return result(out, DiagEmbedBackward0, (self,), (), (offset, n))


@declare("diag_embed", rules=[DiagEmbedBackward0])
def diag_embed(self, offset=0, dim1=-2, dim2=-1):
    return _embed(self, offset)


@declare("diag", rules=[DiagonalBackward0_copy])
def diag(self, diagonal=0):
    if self._a.ndim == 1:
        return _embed(self, diagonal)
    if self._a.ndim != 2:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{self._a.ndim}D")
    return _diagonal(self, diagonal, 0, 1, DiagonalBackward0_copy)


def _tri(name, keep):
    @rule(name, ("self",), (f"grad.{name[:4].lower()}(diagonal)",), ctx=("diagonal",))
    def back(grad, xp, diagonal):
        r, c = grad.shape[-2], grad.shape[-1]
        m = keep(np.ones((r, c), bool), diagonal)
        return (grad * xp.mask(m, grad),)

    def forward(self, diagonal=0):
        a = self._a
        if a.ndim < 2:
            raise RuntimeError(f"{name[:4].lower()}: input tensor must have at least 2 dimensions")
        return result(keep(a, diagonal).astype(a.dtype, copy=False), back, (self,), (), diagonal)
    forward.__name__ = name[:4].lower()
    declare(name[:4].lower(), forward, rules=[back], inplace=unary_inplace(forward))


_tri("TrilBackward0", np.tril)
_tri("TriuBackward0", np.triu)


@rule("TraceBackward0", ("self",), ("grad on the diagonal of zeros(self.sizes())",), ctx=("shape",))
def TraceBackward0(grad, xp, shape):
    n = min(shape)
    idx = (np.arange(n), np.arange(n))
    return (xp.scatter(shape, idx, xp.expand(grad, (n,))),)


@declare("trace", rules=[TraceBackward0])
def trace(self):
    a = self._a
    if a.ndim != 2:
        raise RuntimeError("trace: expected a matrix, but got tensor with dim " + str(a.ndim))
    acc = a.dtype if a.dtype.kind in "fV" else np.int64
    return result(np.asarray(np.trace(a, dtype=acc)), TraceBackward0, (self,), (), a.shape)


def _indices(fn):
    def make(row, col, offset=0, *, dtype=None, device=None, layout=None):
        check_numel(max(row, 0) * max(col, 0), (row, col))   # NumPy builds a row x col mask first
        r, c = fn(row, offset, col)
        return _new(np.stack([r, c]).astype(np.int64))
    return make


declare("tril_indices", _indices(np.tril_indices), method=False, rules=[])
declare("triu_indices", _indices(np.triu_indices), method=False, rules=[])


@declare("fill_diagonal_", function=False, rules=[CopySlices])
def fill_diagonal_(self, fill_value, wrap=False):
    check_leaf_inplace(self, through_view=True)   # PyTorch fills the diagonal() view
    np.fill_diagonal(self._a, fill_value, wrap=wrap)
    self._ver[0] += 1
    if GRAD[0] and self._fn is not None:
        # PyTorch fills self.diagonal() in place: the history gains a CopySlices whose
        # gradient is zero on the diagonal (the old values there no longer matter)
        mask = np.zeros(self._a.shape, bool)
        np.fill_diagonal(mask, True, wrap=wrap)
        node = Node(CopySlices, (edge_of(self), None), (), (np.nonzero(mask), None, True))
        self._fn, self._onr = node, 0
    return self


# ================================================================ stacking helpers (cat underneath)
def _seq(tensors, name):
    if type(tensors) not in (list, tuple):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    return [_t(x) for x in tensors]


def atleast_1d(*tensors):
    seq = tensors[0] if len(tensors) == 1 and type(tensors[0]) in (list, tuple) else tensors
    out = [_t(x) if _t(x)._a.ndim >= 1 else _t(x).reshape(1) for x in seq]
    return out[0] if len(out) == 1 and seq is tensors else tuple(out)


def atleast_2d(*tensors):
    def one(x):
        x = _t(x)
        if x._a.ndim == 0:
            return x.reshape(1, 1)
        if x._a.ndim == 1:
            return x.unsqueeze(0)
        return x
    seq = tensors[0] if len(tensors) == 1 and type(tensors[0]) in (list, tuple) else tensors
    out = [one(x) for x in seq]
    return out[0] if len(out) == 1 and seq is tensors else tuple(out)


def atleast_3d(*tensors):
    def one(x):
        x = _t(x)
        if x._a.ndim == 0:
            return x.reshape(1, 1, 1)
        if x._a.ndim == 1:
            return x.reshape(1, -1, 1)
        if x._a.ndim == 2:
            return x.unsqueeze(-1)
        return x
    seq = tensors[0] if len(tensors) == 1 and type(tensors[0]) in (list, tuple) else tensors
    out = [one(x) for x in seq]
    return out[0] if len(out) == 1 and seq is tensors else tuple(out)


def hstack(tensors):
    ts = [x if x._a.ndim else x.reshape(1) for x in _seq(tensors, "hstack")]
    return _cat(ts, 0 if ts[0]._a.ndim == 1 else 1)


def vstack(tensors):
    return _cat([atleast_2d(x) for x in _seq(tensors, "vstack")], 0)


def dstack(tensors):
    return _cat([atleast_3d(x) for x in _seq(tensors, "dstack")], 2)


def column_stack(tensors):
    ts = [x.reshape(-1, 1) if x._a.ndim <= 1 else x for x in _seq(tensors, "column_stack")]
    return _cat(ts, 1)


def _cat(ts, dim):
    return cat(ts, dim)

for _name, _fn in (("hstack", hstack), ("vstack", vstack), ("row_stack", vstack), ("dstack", dstack),
                   ("column_stack", column_stack), ("atleast_1d", atleast_1d), ("atleast_2d", atleast_2d),
                   ("atleast_3d", atleast_3d)):
    declare(_name, _fn, method=False, rules=[])


# ================================================================ moving, rolling, tiling
def movedim(self, source, destination):
    nd = self._a.ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({shape_list(src)} dims) should "
                           f"contain the same number of dims as destination ({shape_list(dst)} dims)")
    src = [wrap_dim(s, nd) for s in src]
    dst = [wrap_dim(d, nd) for d in dst]
    order = [None] * nd
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(i for i in range(nd) if i not in src)
    order = [o if o is not None else next(rest) for o in order]
    return self.permute(*order)


declare("movedim", movedim, aliases=("moveaxis",), rules=[])


@rule("RollBackward0", ("self",), ("grad.roll(-shifts, dims)",), ctx=("shifts", "dims"))
def RollBackward0(grad, xp, shifts, dims):
    if xp.is_tensor(grad):
        return (roll(grad, tuple(-s for s in shifts), dims),)
    return (np.roll(grad, tuple(-s for s in shifts), dims) if dims is not None else
            np.roll(grad.reshape(-1), -shifts[0]).reshape(grad.shape),)


@declare("roll", rules=[RollBackward0])
def roll(self, shifts, dims=None):
    a = self._a
    sh = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    if dims is None:
        out = np.roll(a.reshape(-1), sh[0]).reshape(a.shape)
        return result(out, RollBackward0, (self,), (), (sh, None))
    ds = (dims,) if isinstance(dims, int) else tuple(dims)
    ds = tuple(wrap_dim(d, a.ndim) for d in ds)
    if len(sh) != len(ds):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(sh)}, dims:{len(ds)}")
    return result(np.roll(a, sh, ds), RollBackward0, (self,), (), (sh, ds))


def tile(self, *dims):
    reps = list(shape_args(dims))
    nd = self._a.ndim
    if len(reps) < nd:
        reps = [1] * (nd - len(reps)) + reps
    return self.repeat(*reps)


declare("tile", tile, rules=[])


def unflatten(self, dim, sizes):
    a = self._a
    d = wrap_dim(dim, a.ndim)
    sizes = list(sizes)
    if -1 in sizes:
        known = int(np.prod([s for s in sizes if s != -1]))
        sizes[sizes.index(-1)] = a.shape[d] // known if known else 0
    return self.view(*a.shape[:d], *sizes, *a.shape[d + 1:])


declare("unflatten", unflatten, rules=[])


@rule("Rot90Backward0", ("self",), ("grad.rot90(-k, dims)",), ctx=("k", "dims"))
def Rot90Backward0(grad, xp, k, dims):
    if xp.tensors:
        return (rot90(grad, -k, dims),)
    return (np.rot90(grad, -k, axes=dims),)


def _rot90(self, k, d0, d1):
    if k == 0:
        return self.clone()
    if k == 1:
        return self.flip(d1).transpose(d0, d1)
    if k == 2:
        return self.flip(d0, d1)
    return self.transpose(d0, d1).flip(d1)


def rot90(self, k=1, dims=(0, 1)):
    k %= 4
    d0, d1 = (wrap_dim(d, self._a.ndim) for d in dims)
    out = np.ascontiguousarray(_value_of(lambda t: _rot90(t, k, d0, d1), self))
    return result(out, Rot90Backward0, (self,), (), (k, (d0, d1)))


declare("rot90", rot90, rules=[Rot90Backward0])
declare("fliplr", lambda self: self.flip(1), rules=[])
declare("flipud", lambda self: self.flip(0), rules=[])
declare("swapdims", lambda self, dim0, dim1: self.transpose(dim0, dim1), rules=[],
        inplace=lambda self, dim0, dim1: self.transpose_(dim0, dim1))


def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
    if repeats is None:   # torch.repeat_interleave(repeats_tensor)
        reps = self._a
        return _new(np.repeat(np.arange(reps.shape[0]), reps).astype(np.int64))
    src = self if dim is not None or self._a.ndim == 1 else self.reshape(-1)
    d = 0 if dim is None else wrap_dim(dim, self._a.ndim)
    if type(repeats) is int and repeats >= 0 and src._a.ndim:
        # PyTorch's int path: unsqueeze, expand, clone, flatten (ViewBackward0)
        u = src.unsqueeze(d + 1)
        return u.expand(*u.shape[:d + 1], repeats, *u.shape[d + 2:]).clone().flatten(d, d + 1)
    r = repeats._a if type(repeats) is Tensor else np.asarray(repeats)
    n = src._a.shape[d]
    counts = np.broadcast_to(r, (n,)) if r.ndim == 0 or r.size == 1 else r
    idx = np.repeat(np.arange(n), counts)
    return src.index_select(d, _new(idx.astype(np.int64)))


declare("repeat_interleave", repeat_interleave, rules=[])


def tensor_split(self, indices_or_sections, dim=0):
    a = self._a
    d = wrap_dim(dim, a.ndim)
    n = a.shape[d]
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
    else:
        cuts = [0] + [min(max(int(i), 0), n) for i in indices_or_sections] + [n]
        sizes = [max(b - a_, 0) for a_, b in zip(cuts, cuts[1:])]
    starts = itertools.accumulate([0] + sizes[:-1])
    return tuple(self.narrow(d, start, size) for start, size in zip(starts, sizes))   # SliceBackward0 each


declare("tensor_split", tensor_split, rules=[])


def meshgrid(*tensors, indexing=None):
    ts = list(tensors[0]) if len(tensors) == 1 and type(tensors[0]) in (list, tuple) else list(tensors)
    ts = [_t(x) for x in ts]
    if indexing is None:
        indexing = "ij"
    shape = [t._a.shape[0] if t._a.ndim else 1 for t in ts]
    if indexing == "xy" and len(ts) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, t in enumerate(ts):
        pos = i
        if indexing == "xy" and len(ts) >= 2 and i < 2:
            pos = 1 - i
        view = [1] * len(ts)
        view[pos] = -1
        out.append(t.reshape(*view).expand(*shape))
    return tuple(out)


declare("meshgrid", meshgrid, method=False, rules=[])
declare("broadcast_to", lambda self, size: self.expand(*shape_args((size,))), rules=[])


@rule("UnfoldBackward0", ("self",), ("unfold_backward(grad, self.sizes(), dimension, size, step)",),
      ctx=("shape", "dim", "size", "step"))
def UnfoldBackward0(grad, xp, shape, dim, size, step):
    if xp.tensors:
        return (unfold_backward(grad, shape, dim, size, step),)
    return (_unfold_bw(grad, shape, dim, size, step),)


def _unfold_bw(g, shape, dim, size, step):
    n = (shape[dim] - size) // step + 1
    idx = np.arange(n)[:, None] * step + np.arange(size)[None, :]
    out = np.zeros(shape, g.dtype)
    moved = np.moveaxis(out, dim, -1)
    gm = np.moveaxis(g, dim, -2)
    for w in range(n):
        moved[..., idx[w]] += gm[..., w, :]
    return out


@rule("UnfoldBackwardBackward0", ("grad_in",), ("grad.unfold(dim, size, step)",), ctx=("dim", "size", "step"))
def UnfoldBackwardBackward0(grad, xp, dim, size, step):
    if xp.tensors:
        return (unfold(grad, dim, size, step),)
    n = (grad.shape[dim] - size) // step + 1
    idx = np.arange(n)[:, None] * step + np.arange(size)[None, :]
    return (np.ascontiguousarray(np.moveaxis(np.take(grad, idx, axis=dim), dim + 1, -1)),)


def unfold_backward(grad_in, shape, dim, size, step):
    return result(_unfold_bw(grad_in._a, shape, dim, size, step), UnfoldBackwardBackward0, (grad_in,), (),
                  (dim, size, step))


declare("unfold_backward", unfold_backward, method=False, function=False, rules=[UnfoldBackwardBackward0])


@declare("unfold", function=False, rules=[UnfoldBackward0])
def unfold(self, dimension, size, step):
    a = self._a
    d = wrap_dim(dimension, a.ndim) if a.ndim else 0
    n = (a.shape[d] - size) // step + 1
    idx = np.arange(n)[:, None] * step + np.arange(size)[None, :]
    out = np.moveaxis(np.take(a, idx, axis=d), d + 1, -1)
    return result(np.ascontiguousarray(out), UnfoldBackward0, (self,), (), (a.shape, d, size, step))


# ================================================================ products
BmmBackward0 = rule("BmmBackward0", ("self", "mat2"),
                    ("grad.bmm(mat2.transpose(1, 2))", "self.transpose(1, 2).bmm(grad)"),
                    saved=("self", "mat2"), key="BmmBackward0 (batched)")(
    lambda grad, xp, node, self, mat2: (None if node.edges[0] is None else xp.bmm(grad, xp.swap(mat2, 1, 2)),
                                        None if node.edges[1] is None else xp.bmm(xp.swap(self, 1, 2), grad)))


@declare("bmm", rules=[BmmBackward0])
def bmm(self, mat2):
    a, b = self._a, mat2._a
    if a.ndim != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError(f"batch2 must be a 3D tensor")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, "
                           f"{a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    return result(matrix_product(np.matmul, a, b), BmmBackward0, (self, mat2), (self, mat2))


def einsum(equation, *operands):
    ops = list(operands[0]) if len(operands) == 1 and type(operands[0]) in (list, tuple) else list(operands)
    ops = [_t(o) for o in ops]
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ops):
        raise RuntimeError(f"einsum(): more operands were provided than specified in the equation" if len(ops) > len(terms)
                           else "einsum(): fewer operands were provided than specified in the equation")
    seen = {}
    for k, (t, o) in enumerate(zip(terms, ops)):
        shape = o._a.shape
        if "..." not in t:
            if len(t) != len(shape):
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(t)}) does not match "
                                   f"the number of dimensions ({len(shape)}) for operand {k} and no ellipsis was given")
            mine = {}
            for c, n in zip(t, shape):
                if c in mine and mine[c] != n:
                    raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {k} but the sizes don't "
                                       f"match, {n} != {mine[c]}")
                mine[c] = n
                if c in seen and n != seen[c] and n != 1 and seen[c] != 1:
                    raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {k} which does not "
                                       f"broadcast with previously seen size {seen[c]}")
                if n != 1 or c not in seen:
                    seen[c] = n
    if arrow:
        for c in rhs.replace("...", ""):
            if c not in lhs:
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input "
                                   f"operand")
    # expand '...' into fresh letters
    free = iter(c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in eq)
    ell = None
    new_terms = []
    for t, o in zip(terms, ops):
        if "..." in t:
            k = o._a.ndim - (len(t) - 3)
            if ell is None or len(ell) < k:
                ell = (ell or "") + "".join(next(free) for _ in range(k - len(ell or "")))
            t = t.replace("...", ell[len(ell) - k:] if k else "")
        new_terms.append(t)
    if arrow:
        out = rhs.replace("...", ell or "")
    else:
        counts = {}
        for t in new_terms:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = (ell or "") + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in (ell or "")))
    return _einsum(new_terms, out, ops)


def _einsum(terms, out, ops):
    """Contract pairwise with PyTorch's primitives (diagonals, sums, permutes, broadcasting
    multiplication, bmm), so autograd goes through existing ops."""
    cur = []
    for t, o in zip(terms, ops):
        # repeated letters within one operand: take the diagonal
        while len(set(t)) < len(t):
            c = next(c for c in t if t.count(c) > 1)
            i, j = t.index(c), t.index(c, t.index(c) + 1)
            o = o.diagonal(0, i, j)
            t = t[:i] + t[i + 1:j] + t[j + 1:] + c
        cur.append((t, o))
    needed_later = lambda k: set(out).union(*[set(t) for t, _ in cur[k + 1:]])  # noqa: E731
    t0, acc = cur[0]
    # sum letters of the first operand that appear nowhere else
    for k in range(1, len(cur) + 1):
        later = set(out).union(*[set(t) for t, _ in cur[k:]])
        drop = [i for i, c in enumerate(t0) if c not in later]
        if drop:
            acc = acc.sum(tuple(drop))
            t0 = "".join(c for i, c in enumerate(t0) if i not in drop)
        if k == len(cur):
            break
        t1, o1 = cur[k]
        later_after = set(out).union(*[set(t) for t, _ in cur[k + 1:]])
        letters = list(dict.fromkeys(t0 + t1))
        batch = [c for c in letters if c in t0 and c in t1 and c in later_after]
        contract = [c for c in letters if c in t0 and c in t1 and c not in later_after]
        left = [c for c in t0 if c not in t1]
        right = [c for c in t1 if c not in t0]
        if contract:
            a = acc.permute(*[t0.index(c) for c in batch + left + contract])
            b = o1.permute(*[t1.index(c) for c in batch + contract + right])
            size = dict(zip(t0, acc.shape))
            size.update(zip(t1, o1.shape))
            nb = int(np.prod([size[c] for c in batch])) if batch else 1
            nl = int(np.prod([size[c] for c in left])) if left else 1
            nc = int(np.prod([size[c] for c in contract]))
            nr = int(np.prod([size[c] for c in right])) if right else 1
            prod = a.reshape(nb, nl, nc).bmm(b.reshape(nb, nc, nr))
            acc = prod.view(*[size[c] for c in batch + left + right])
            t0 = "".join(batch + left + right)
        else:
            full = list(dict.fromkeys(t0 + t1))
            a = _align(acc, t0, full)
            b = _align(o1, t1, full)
            acc = a * b
            t0 = "".join(full)
    drop = [i for i, c in enumerate(t0) if c not in out]
    if drop:
        acc = acc.sum(tuple(drop))
        t0 = "".join(c for c in t0 if c in out)
    if t0 != out:
        acc = acc.permute(*[t0.index(c) for c in out])
    return acc


def _align(t, letters, full):
    order = [letters.index(c) for c in full if c in letters]
    t = t.permute(*order) if order != list(range(len(order))) else t
    present = [c for c in full if c in letters]
    shape = []
    it = iter(t.shape)
    for c in full:
        shape.append(next(it) if c in present else 1)
    return t.reshape(*shape)


declare("einsum", einsum, method=False, rules=[])


def inner(self, other):
    self, other = _t(self), _t(other)
    if self._a.ndim == 0 or other._a.ndim == 0:
        return self * other
    return _inner(self, other)


def _inner(a, b):
    letters = "abcdefghij"
    la = letters[:a._a.ndim - 1] + "z"
    lb = letters[a._a.ndim - 1:a._a.ndim - 1 + b._a.ndim - 1] + "z"
    return einsum(f"{la},{lb}->{la[:-1]}{lb[:-1]}", a, b)


declare("inner", inner, rules=[])


@rule("LinalgCrossBackward0", ("self", "other"), ("other.cross(grad, dim)", "grad.cross(self, dim)"),
      saved=("self", "other"), ctx=("dim", "shapes"))
def LinalgCrossBackward0(grad, xp, self, other, dim, shapes):
    if xp.tensors:   # the op itself, so that create_graph differentiates it again
        return (None if shapes[0] is None else xp.sum_to(cross(other, grad, dim), shapes[0]),
                None if shapes[1] is None else xp.sum_to(cross(grad, self, dim), shapes[1]))
    a, b, g = xp.raw(self), xp.raw(other), xp.raw(grad)
    ga = np.cross(b, g, axis=dim)
    gb = np.cross(g, a, axis=dim)
    return (None if shapes[0] is None else xp.sum_to(xp.constant(ga.astype(g.dtype)), shapes[0]),
            None if shapes[1] is None else xp.sum_to(xp.constant(gb.astype(g.dtype)), shapes[1]))


_CROSS_WARNED = [False]    # PyTorch's TORCH_WARN_ONCE: the first cross without dim in a process


def cross(self, other, dim=None):
    a, b = self._a, other._a
    shape = np.broadcast_shapes(a.shape, b.shape)
    if dim is None:
        if not _CROSS_WARNED[0]:
            _CROSS_WARNED[0] = True
            warn("UserWarning", "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass "
                 "the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to "
                 "agree with that of linalg.cross in a future release. (Triggered internally at "
                 "/__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)")
        dim = next((i for i, s in enumerate(shape) if s == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    d = wrap_dim(dim, len(shape))
    if shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {a.shape[d] if a.ndim > d else 1}"
                           f" and {b.shape[d] if b.ndim > d else 1}")
    out = np.cross(np.broadcast_to(a, shape), np.broadcast_to(b, shape), axis=d).astype(np.result_type(a, b))
    shapes = (a.shape if self.requires_grad else None, b.shape if other.requires_grad else None)
    return result(out, LinalgCrossBackward0, (self, other), (self, other), (d, shapes))


declare("cross", cross, rules=[LinalgCrossBackward0])


def kron(self, other):
    a, b = _t(self), _t(other)
    nd = max(a._a.ndim, b._a.ndim)
    sa = (1,) * (nd - a._a.ndim) + tuple(a._a.shape)
    sb = (1,) * (nd - b._a.ndim) + tuple(b._a.shape)
    ai = a.reshape(*itertools.chain.from_iterable((s, 1) for s in sa))
    bi = b.reshape(*itertools.chain.from_iterable((1, s) for s in sb))
    prod = ai * bi
    # PyTorch ends with _unsafe_view (UnsafeViewBackward0)
    return result(prod._a.reshape([x * y for x, y in zip(sa, sb)]), UnsafeViewBackward0, (prod,), (),
                  tuple(prod._a.shape))


declare("kron", kron, rules=[])


def diff(self, n=1, dim=-1, prepend=None, append=None):
    t = self
    d = wrap_dim(dim, t._a.ndim)
    if prepend is not None or append is not None:
        parts = ([_t(prepend)] if prepend is not None else []) + [t] + ([_t(append)] if append is not None else [])
        t = _cat(parts, d)
    for _ in range(n):
        m = t._a.shape[d]
        hi = t.narrow(d, 1, m - 1)
        lo = t.narrow(d, 0, m - 1)
        t = (hi ^ lo) if t.dtype.name == "torch.bool" else hi - lo
    return t


declare("diff", diff, rules=[])


def tensordot(a, b, dims=2):
    a, b = _t(a), _t(b)
    if isinstance(dims, int):
        da = list(range(a._a.ndim - dims, a._a.ndim))
        db = list(range(dims))
    else:
        da, db = dims
        da = [da] if isinstance(da, int) else list(da)
        db = [db] if isinstance(db, int) else list(db)
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    la = [next(letters) for _ in range(a._a.ndim)]
    lb = [next(letters) for _ in range(b._a.ndim)]
    for i, j in zip(da, db):
        lb[j] = la[i]
    out = [c for i, c in enumerate(la) if i not in da] + [c for j, c in enumerate(lb) if j not in db]
    return einsum(f"{''.join(la)},{''.join(lb)}->{''.join(out)}", a, b)


declare("tensordot", tensordot, method=False, rules=[])


@rule("VdotBackward0", ("self", "other"), ("grad * other", "grad * self"), saved=("self", "other"))
def VdotBackward0(grad, xp, node, self, other):
    ea, eb = node.edges
    return (None if ea is None else grad * other, None if eb is None else grad * self)


def vdot(self, other):
    out = _value_of(lambda a, b: a.dot(b), self, other)
    return result(out, VdotBackward0, (self, other), (self, other))


declare("vdot", vdot, rules=[VdotBackward0])


def _scaled(g, factor):
    return g if factor == 1 else g * factor


def _add_product(name, product, grads, formulas):
    """self * beta + alpha * product(m1, m2), recorded as PyTorch's one node (AddmvBackward0, ...):
    `grads(grad, xp, m1, m2)` gives the product's gradients before alpha."""
    @rule(name, ("self", "m1", "m2"), ("maybe_multiply(grad, beta)", *formulas), saved=("m1", "m2"),
          ctx=("self_shape", "beta", "alpha"))
    def backward(grad, xp, node, m1, m2, self_shape, beta, alpha):
        e = node.edges
        g_self = None if e[0] is None else xp.sum_to(_scaled(grad, beta), self_shape)
        g1, g2 = grads(grad, xp, m1 if e[2] is not None else None, m2 if e[1] is not None else None)
        return (g_self, None if e[1] is None else _scaled(g1, alpha), None if e[2] is None else _scaled(g2, alpha))

    def forward(self, m1, m2, *, beta=1, alpha=1):
        def composed(s, a, b):
            prod = product(a, b)
            return (s * beta if beta != 1 else s) + (prod * alpha if alpha != 1 else prod)
        out = _value_of(composed, self, m1, m2)
        return result(out, backward, (self, m1, m2), (m1, m2), (self._a.shape, beta, alpha))
    forward.__name__ = name
    return forward, backward


def _bmm_grads(grad, xp, b1, b2):
    return (None if b2 is None else xp.bmm(grad, xp.swap(b2, 1, 2)),
            None if b1 is None else xp.bmm(xp.swap(b1, 1, 2), grad))


def _addbmm_grads(grad, xp, b1, b2):
    g = xp.expand(xp.unsqueeze_dims(grad, (0,)), ((b1 if b1 is not None else b2).shape[0],) + tuple(grad.shape))
    return _bmm_grads(g, xp, b1, b2)


baddbmm, BaddbmmBackward0 = _add_product(
    "BaddbmmBackward0", lambda a, b: a.bmm(b), _bmm_grads,
    ("grad.bmm(batch2.transpose(1, 2)) * alpha", "batch1.transpose(1, 2).bmm(grad) * alpha"))
addmv, AddmvBackward0 = _add_product(
    "AddmvBackward0", lambda a, b: a.mv(b),
    lambda grad, xp, mat, vec: (None if vec is None else xp.outer(grad, vec),
                                None if mat is None else xp.matmul(xp.mT(mat), grad)),
    ("grad.ger(vec) * alpha", "mat.t().mv(grad) * alpha"))
addr, AddrBackward0 = _add_product(
    "AddrBackward0", lambda a, b: a.unsqueeze(1) * b.unsqueeze(0),
    lambda grad, xp, v1, v2: (None if v2 is None else xp.matmul(grad, v2),
                              None if v1 is None else xp.matmul(xp.mT(grad), v1)),
    ("grad.mv(vec2) * alpha", "grad.t().mv(vec1) * alpha"))
addbmm, AddbmmBackward0 = _add_product(
    "AddbmmBackward0", lambda a, b: a.bmm(b).sum(0), _addbmm_grads,
    ("grad.unsqueeze(0).expand(b, n, p).bmm(batch2.transpose(1, 2)) * alpha",
     "batch1.transpose(1, 2).bmm(grad.unsqueeze(0).expand(b, n, p)) * alpha"))
for _name, _fn, _rule in (("baddbmm", baddbmm, BaddbmmBackward0), ("addmv", addmv, AddmvBackward0),
                          ("addr", addr, AddrBackward0), ("addbmm", addbmm, AddbmmBackward0)):
    declare(_name, _fn, rules=[_rule], inplace=unary_inplace(_fn))


def multi_dot(tensors):
    ts = [_t(x) for x in tensors]
    if len(ts) < 2:
        raise RuntimeError("multi_dot(): expected at least 2 tensors but got " + str(len(ts)))
    first_vec, last_vec = ts[0]._a.ndim == 1, ts[-1]._a.ndim == 1
    if first_vec:
        ts[0] = ts[0].unsqueeze(0)
    if last_vec:
        ts[-1] = ts[-1].unsqueeze(1)
    acc = ts[0]
    for t in ts[1:]:
        acc = acc.mm(t)
    shape = acc.shape[1 if first_vec else 0:-1 if last_vec else None]
    return acc.view(*shape)   # PyTorch's multi_dot ends with a view to the output shape (ViewBackward0)


def chain_matmul(*matrices):
    return multi_dot(list(matrices))


declare("chain_matmul", chain_matmul, method=False, rules=[])


@rule("DistBackward0", ("self", "other"), ("norm_backward(grad, self - other, p, result)", "-(that)"),
      saved=("self", "other", "result"), ctx=("p", "shapes"))
def DistBackward0(grad, xp, self, other, result, p, shapes):
    g = LinalgVectorNormBackward0.fn(grad, xp, self - other, result, None, False, p)[0]   # norm_backward
    if g is None:
        return (None, None)
    return (None if shapes[0] is None else xp.sum_to(g, shapes[0]),
            None if shapes[1] is None else xp.sum_to(-g, shapes[1]))


@declare("dist", rules=[DistBackward0])
def dist(self, other, p=2):
    d = (self._a - other._a).astype(np.float64)
    if p == float("inf"):
        val = np.max(np.abs(d))
    elif p == 0:
        val = np.count_nonzero(d)
    else:
        val = np.sum(np.abs(d) ** p) ** (1.0 / p)
    out = np.asarray(val).astype(np.result_type(self._a, other._a))
    shapes = (self._a.shape if self.requires_grad else None, other._a.shape if other.requires_grad else None)
    return result(out, DistBackward0, (self, other), (self, other, RESULT), (p, shapes))


def _cdist_composed(x1, x2, p):
    diff_ = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    if p == 2:
        return (diff_ * diff_).sum(-1).sqrt()
    if p == 1:
        return diff_.abs().sum(-1)
    return (diff_.abs() ** p).sum(-1) ** (1.0 / p)


def _cdist_bw(g, a, b, dist, p):
    """_cdist_backward: d x1 of sum(g * cdist(x1, x2)); 0 where a distance is 0 (as PyTorch)."""
    diff = a[..., :, None, :] - b[..., None, :, :]
    d = dist[..., None]
    with np.errstate(all="ignore"):
        if p == 1:
            local = np.sign(diff)
        elif p == 2:
            local = diff / d
        else:
            local = diff * np.abs(diff) ** (p - 2) / d ** (p - 1)
    local = np.where(d == 0, 0, local)
    return (g[..., None] * local).sum(-2).astype(a.dtype, copy=False)


@rule("CdistBackwardBackward0", ("grad", "x1", "x2", "cdist"), ("not implemented",) * 4)
def CdistBackwardBackward0(grad, xp):
    raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


def _cdist_backward(grad, x1, x2, dist, p):
    """Under create_graph: the gradient requires grad, as PyTorch's, but has no derivative of its own."""
    return result(_cdist_bw(grad._a, x1._a, x2._a, dist._a, p), CdistBackwardBackward0, (grad, x1, x2, dist))


@rule("CdistBackward0", ("x1", "x2"), ("_cdist_backward(grad, x1, x2, p, result)", "_cdist_backward(grad.mT, x2, x1, p, result.mT)"),
      saved=("x1", "x2", "result"), ctx=("p",))
def CdistBackward0(grad, xp, node, x1, x2, result, p):
    e = node.edges
    if xp.tensors:
        return (None if e[0] is None else _cdist_backward(grad, x1, x2, result, p),
                None if e[1] is None else _cdist_backward(grad.mT, x2, x1, result.mT.clone(), p))
    return (None if e[0] is None else _cdist_bw(grad, x1, x2, result, p),
            None if e[1] is None else _cdist_bw(np.swapaxes(grad, -1, -2), x2, x1, np.swapaxes(result, -1, -2), p))


def cdist(x1, x2, p=2.0, compute_mode=None):
    if p == float("inf") or p <= 0:
        return _cdist_composed(x1, x2, p)
    out = _value_of(lambda a, b: _cdist_composed(a, b, p), x1, x2)
    return result(out, CdistBackward0, (x1, x2), (x1, x2, RESULT), p)


declare("cdist", cdist, method=False, rules=[CdistBackward0])


def cartesian_prod(*tensors):
    ts = [_t(x) for x in tensors]
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(*ts, indexing="ij")
    return stack([g.reshape(-1) for g in grids], 1)


declare("cartesian_prod", cartesian_prod, method=False, rules=[])
LINALG = {"multi_dot": multi_dot, "cross": lambda input, other, *, dim=-1: cross(input, other, dim),
          "vecdot": lambda x, y, *, dim=-1: (x * y).sum(dim)}


# ================================================================ more of the documented API (issue 14)
@declare("ravel", rules=[])
def ravel(self):
    return self.contiguous().view(-1)     # PyTorch's ravel: CloneBackward0 then ViewBackward0


def _directional_split(name, need, dim_of):
    """torch.hsplit / vsplit / dsplit: tensor_split along a fixed dim; sections must divide it."""
    def split(self, indices_or_sections):
        nd = self._a.ndim
        if nd < need:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {need} dimension, but got a tensor with "
                               f"{nd} dimensions!")
        d = dim_of(nd)
        if isinstance(indices_or_sections, int):
            n, k = self._a.shape[d], indices_or_sections
            if k <= 0 or n % k:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the size of the "
                                   f"dimension {n} is not divisible by the split_size {k}!")
        return tensor_split(self, indices_or_sections, d)
    split.__name__ = name
    declare(name, split, rules=[])


_directional_split("hsplit", 1, lambda nd: 1 if nd > 1 else 0)
_directional_split("vsplit", 2, lambda nd: 0)
_directional_split("dsplit", 3, lambda nd: 2)
declare("split_with_sizes", lambda self, split_sizes, dim=0: self.split(list(split_sizes), dim), rules=[])


@declare("diagflat", rules=[])
def diagflat(self, offset=0):
    return self.reshape(-1).diag_embed(offset)


@declare("sum_to_size", function=False, rules=[])
def sum_to_size(self, *size):
    shape = shape_args(size)
    own = self._a.shape
    lead = len(own) - len(shape)
    if lead < 0 or any(s != 1 and s != o for s, o in zip(shape, own[lead:])):
        raise RuntimeError(f"size {{{', '.join(map(str, shape))}}} is not expandable to size "
                           f"{{{', '.join(map(str, own))}}}.")
    if shape == own:
        return self
    dims = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1 and own[lead + i] != 1)
    out = self.sum(dims, keepdim=True) if dims else self
    return out.view(*shape) if lead else out


def _matrix_transpose(name, message):
    def adjoint(self):
        if self._a.ndim < 2:
            raise RuntimeError(message.format(nd=self._a.ndim))
        return self.transpose(-2, -1)
    adjoint.__name__ = name
    return adjoint


declare("mH", _matrix_transpose("mH", "tensor.mH is only supported on matrices or batches of matrices. Got {nd}-D "
                                "tensor."), function=False, attribute=True, rules=[])
declare("adjoint", _matrix_transpose("adjoint", "tensor.adjoint() is only supported on matrices or batches of "
                                     "matrices. Got {nd}-D tensor."), rules=[])


@declare("H", function=False, attribute=True, rules=[])
def H(self):
    if self._a.ndim not in (0, 2):
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self._a.ndim}-D tensor."
                           + (" For batches of matrices, consider using tensor.mH" if self._a.ndim > 2 else ""))
    return self.transpose(0, 1) if self._a.ndim == 2 else self


@rule("BlockDiagBackward0", ("tensors",), ("grad's block at each input's place",), ctx=("blocks",))
def BlockDiagBackward0(grad, xp, node, blocks):
    out = []
    for (r, c, shape, rows, cols), edge in zip(blocks, node.edges):
        if edge is None:
            out.append(None)
            continue
        part = xp.index(grad, (slice(r, r + rows), slice(c, c + cols)))
        out.append(xp.reshape(part, shape))
    return tuple(out)


def block_diag(*tensors):
    ts = [_t(x) for x in tensors]
    for k, t in enumerate(ts):
        if t._a.ndim > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {k} has "
                               f"{t._a.ndim} dimensions")
    mats = [t._a.reshape(1, -1) if t._a.ndim < 2 else t._a for t in ts]
    rd = D.result_type([t for t in ts]) if ts else D.DEFAULT_FLOAT[0]
    out = np.zeros((int(np.sum([m.shape[0] for m in mats])), int(np.sum([m.shape[1] for m in mats]))), rd.np)
    blocks, r, c = [], 0, 0
    for t, m in zip(ts, mats):
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        blocks.append((r, c, t._a.shape, m.shape[0], m.shape[1]))
        r, c = r + m.shape[0], c + m.shape[1]
    if not rd.is_floating_point:
        return _new(out)
    return result(out, BlockDiagBackward0, ts, (), tuple(blocks))


declare("block_diag", block_diag, method=False, rules=[BlockDiagBackward0])


def combinations(input, r=2, with_replacement=False):
    if input._a.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {shape_list(input._a.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _new(np.zeros((0,), input._a.dtype))
    _check_combinations(input._a.shape[0], r, with_replacement)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(pick(range(input._a.shape[0]), r))
    if not rows:
        return _new(np.zeros((0, r), input._a.dtype))
    cols = np.asarray(rows, dtype=np.int64).T
    return stack([input[_new(col.copy())] for col in cols], 1)


def _check_combinations(n, r, with_replacement):
    """Refuse a result past the element cap before itertools builds its rows (one C loop)."""
    total = n + r - 1 if with_replacement else n
    if n == 0 or r > total:
        return
    if r > LIMITS.max_elements:
        check_numel(r, (1, r))
    k, count = min(r, total - r), 1
    for i in range(k):   # C(total, i) doubles at least every step: a few dozen steps at most
        count = count * (total - i) // (i + 1)
        if count * r > LIMITS.max_elements:
            check_numel(count * r)    # a lower bound of the rows: no shape to show
    check_numel(count * r, (count, r))


declare("combinations", combinations, method=False, rules=[])


def broadcast_tensors(*tensors):
    ts = [_t(x) for x in (tensors[0] if len(tensors) == 1 and type(tensors[0]) in (list, tuple) else tensors)]
    shape = ()
    for t in ts:
        shape = broadcast_shape(shape, t._a.shape)
    # ATen's expand_outplace: a tensor already of the broadcast shape is returned itself
    return tuple(t if t._a.shape == shape else t.expand(*shape) for t in ts)


declare("broadcast_tensors", broadcast_tensors, method=False, rules=[])


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    a = _t(elements)._a
    b = _t(test_elements)._a
    return _new(np.isin(a, b, invert=invert))


declare("isin", isin, method=False, rules=[])


def unravel_index(indices, shape):
    idx = _t(indices)
    if idx._a.dtype.kind not in "iu":
        raise TypeError("expected 'indices' to be integer dtype, but got " + str(idx.dtype))
    shape = shape_args((shape,)) if not isinstance(shape, int) else (shape,)
    n = int(np.prod(shape, dtype=np.int64))
    flat = idx._a
    if flat.size and (flat.min() < -n or flat.max() >= n):
        raise RuntimeError("index out of bounds for shape")
    parts = np.unravel_index(np.where(flat < 0, flat + n, flat), shape)
    return tuple(_new(np.asarray(p, np.int64)) for p in parts)


declare("unravel_index", unravel_index, method=False, rules=[], returns_tensor=False)


def vander(x, N=None, increasing=False):
    x = _t(x)
    if x._a.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x._a.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    if x._a.dtype.kind in "biu":
        x = x.to(D.int64)
    if n == 0:
        return _new(np.zeros((x._a.shape[0], 0), x._a.dtype))
    # PyTorch: a column of ones, then the running product of x, flipped unless increasing
    ones = _new(np.ones((x._a.shape[0], 1), x._a.dtype))
    out = cat([ones, x.unsqueeze(1).expand(x._a.shape[0], n - 1)], 1).cumprod(1) if n > 1 else ones
    return out if increasing else out.flip(1)


declare("vander", vander, method=False, rules=[])


def cov(input, *, correction=1, fweights=None, aweights=None):
    if fweights is not None or aweights is not None:
        raise RuntimeError("cov(): fweights and aweights are not available in gradrepl")
    if input._a.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input._a.ndim} dimensions")
    x = input.reshape(1, -1) if input._a.ndim < 2 else input
    if not x.dtype.is_floating_point:
        x = x.to(D.DEFAULT_FLOAT[0])
    n = x._a.shape[1]
    w_sum = _new(np.asarray(n, np.int64))
    avg = x.sum(1) / w_sum
    norm = w_sum - correction
    if int(norm._a) <= 0:
        warn("UserWarning", "cov(): degrees of freedom is <= 0. Correction should be strictly less than the number "
             "of observations.")
        norm = norm.clamp_min(0)
    xc = x - avg.unsqueeze(1)
    return (xc @ xc.t()).true_divide(norm).squeeze()


declare("cov", cov, rules=[])


def corrcoef(input):
    c = cov(input)
    if c._a.ndim == 0:
        return c / c
    d = c.diagonal().sqrt()
    c = c / d.view(-1, 1)
    c = c / d.view(1, -1)
    return c.clamp(-1, 1)


declare("corrcoef", corrcoef, rules=[])


def _trapezoid_spacing(y, x, dim):
    """x's spacing along dim, shaped to broadcast against y (PyTorch's trapezoid with x)."""
    x = _t(x)
    if x._a.ndim == 1:
        view = [1] * y._a.ndim
        view[dim] = x._a.shape[0]
        x = x.view(*view)
    n = x._a.shape[dim]
    return x.narrow(dim, 1, n - 1) - x.narrow(dim, 0, n - 1)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    d = wrap_dim(dim, y._a.ndim)
    n = y._a.shape[d]
    if n == 0:
        return y.sum(d) * 0
    if x is not None:   # PyTorch: (dx * (y[1:] + y[:-1])).sum(dim) / 2
        if dx is not None:
            raise TypeError("trapezoid() received an invalid combination of arguments - got both x and dx")
        return (_trapezoid_spacing(y, x, d) * (y.narrow(d, 1, n - 1) + y.narrow(d, 0, n - 1))).sum(d) / 2.0
    step = 1.0 if dx is None else dx
    return (y.sum(d) - (y.select(d, 0) + y.select(d, -1)) * 0.5) * step


def trapz(y, x=None, *, dx=None, dim=-1):
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    d = wrap_dim(dim, y._a.ndim)
    n = y._a.shape[d]
    pairs = y.narrow(d, 0, n - 1) + y.narrow(d, 1, n - 1)
    if x is not None:
        return (_trapezoid_spacing(y, x, d) * pairs).cumsum(d) / 2.0
    return ((1.0 if dx is None else dx) / 2.0 * pairs).cumsum(d)


declare("trapezoid", trapezoid, method=False, rules=[])
declare("trapz", trapz, method=False, rules=[])
declare("cumulative_trapezoid", cumulative_trapezoid, method=False, rules=[])
