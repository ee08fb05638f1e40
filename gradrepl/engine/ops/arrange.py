"""Arranging and combining tensors: diagonals and triangles, stacking helpers, moving,
rolling and tiling, batched and multi-operand products (bmm, einsum, kron, cross, ...).

Where PyTorch implements an op by composing others (hstack is cat, tile is repeat,
movedim is permute, einsum is permute/bmm/view, diff and kron are slicing and
arithmetic), gradrepl composes the same ops, so grad_fn names and gradients agree.
"""
import itertools

import numpy as np

from gradrepl.engine.ops.common import RESULT, as_tensor, result
from gradrepl.engine.ops.inplace import unary_inplace
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.ops.shape import cat, stack
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import shape_args, shape_list, wrap_dim


def _t(x):
    return x if type(x) is Tensor else as_tensor(x)


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
    acc = a.dtype if a.dtype.kind == "f" else np.int64
    return result(np.asarray(np.trace(a, dtype=acc)), TraceBackward0, (self,), (), a.shape)


def _indices(fn):
    def make(row, col, offset=0, *, dtype=None, device=None, layout=None):
        r, c = fn(row, offset, col)
        return _new(np.stack([r, c]).astype(np.int64))
    return make


declare("tril_indices", _indices(np.tril_indices), method=False, rules=[])
declare("triu_indices", _indices(np.triu_indices), method=False, rules=[])


@declare("fill_diagonal_", function=False, rules=[])
def fill_diagonal_(self, fill_value, wrap=False):
    np.fill_diagonal(self._a, fill_value, wrap=wrap)
    self._ver[0] += 1
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


def rot90(self, k=1, dims=(0, 1)):
    k %= 4
    d0, d1 = dims
    if k == 0:
        return self.clone()
    if k == 1:
        return self.flip(d1).transpose(d0, d1)
    if k == 2:
        return self.flip(d0, d1)
    return self.transpose(d0, d1).flip(d1)


declare("rot90", rot90, rules=[])
declare("fliplr", lambda self: self.flip(1), rules=[])
declare("flipud", lambda self: self.flip(0), rules=[])
declare("swapdims", lambda self, dim0, dim1: self.transpose(dim0, dim1), rules=[])


def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
    if repeats is None:   # torch.repeat_interleave(repeats_tensor)
        reps = self._a
        return _new(np.repeat(np.arange(reps.shape[0]), reps).astype(np.int64))
    src = self if dim is not None else self.reshape(-1)
    d = 0 if dim is None else wrap_dim(dim, self._a.ndim)
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
    return tuple(self.split(sizes, d))


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
    n = (shape[dim] - size) // step + 1
    idx = np.arange(n)[:, None] * step + np.arange(size)[None, :]
    g = xp.raw(grad)
    out = np.zeros(shape, g.dtype)
    moved = np.moveaxis(out, dim, -1)
    gm = np.moveaxis(g, dim, -2)
    for w in range(n):
        moved[..., idx[w]] += gm[..., w, :]
    return (xp.constant(out),)


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
    lambda grad, xp, node, self, mat2: (None if node.edges[0] is None else xp.matmul(grad, xp.swap(mat2, 1, 2)),
                                        None if node.edges[1] is None else xp.matmul(xp.swap(self, 1, 2), grad)))


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
    return result(np.matmul(a, b), BmmBackward0, (self, mat2), (self, mat2))


def einsum(equation, *operands):
    ops = list(operands[0]) if len(operands) == 1 and type(operands[0]) in (list, tuple) else list(operands)
    ops = [_t(o) for o in ops]
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ops):
        raise RuntimeError(f"einsum(): more operands were provided than specified in the equation" if len(ops) > len(terms)
                           else "einsum(): fewer operands were provided than specified in the equation")
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
    a, b, g = xp.raw(self), xp.raw(other), xp.raw(grad)
    ga = np.cross(b, g, axis=dim)
    gb = np.cross(g, a, axis=dim)
    return (None if shapes[0] is None else xp.sum_to(xp.constant(ga.astype(g.dtype)), shapes[0]),
            None if shapes[1] is None else xp.sum_to(xp.constant(gb.astype(g.dtype)), shapes[1]))


def cross(self, other, dim=None):
    a, b = self._a, other._a
    shape = np.broadcast_shapes(a.shape, b.shape)
    if dim is None:
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
    a = a.reshape(*([1] * (nd - a._a.ndim)), *a.shape)
    b = b.reshape(*([1] * (nd - b._a.ndim)), *b.shape)
    ai = a.reshape(*itertools.chain.from_iterable((s, 1) for s in a.shape))
    bi = b.reshape(*itertools.chain.from_iterable((1, s) for s in b.shape))
    return (ai * bi).reshape(*[x * y for x, y in zip(a.shape, b.shape)])


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


def vdot(self, other):
    return self.dot(other)


declare("vdot", vdot, rules=[])


def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    prod = batch1.bmm(batch2)
    return (self * beta if beta != 1 else self) + (prod * alpha if alpha != 1 else prod)


def addmv(self, mat, vec, *, beta=1, alpha=1):
    prod = mat.mv(vec)
    return (self * beta if beta != 1 else self) + (prod * alpha if alpha != 1 else prod)


def addr(self, vec1, vec2, *, beta=1, alpha=1):
    prod = vec1.unsqueeze(1) * vec2.unsqueeze(0)
    return (self * beta if beta != 1 else self) + (prod * alpha if alpha != 1 else prod)


def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    prod = batch1.bmm(batch2).sum(0)
    return (self * beta if beta != 1 else self) + (prod * alpha if alpha != 1 else prod)


for _name, _fn in (("baddbmm", baddbmm), ("addmv", addmv), ("addr", addr), ("addbmm", addbmm)):
    declare(_name, _fn, rules=[])


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
    if first_vec:
        acc = acc.squeeze(0)
    if last_vec:
        acc = acc.squeeze(-1)
    return acc


def chain_matmul(*matrices):
    return multi_dot(list(matrices))


declare("chain_matmul", chain_matmul, method=False, rules=[])


@rule("DistBackward0", ("self", "other"), ("norm_backward(grad, self - other, p, result)", "-(that)"),
      saved=("self", "other", "result"), ctx=("p", "shapes"))
def DistBackward0(grad, xp, self, other, result, p, shapes):
    diff_ = self - other
    if p == 2:
        g = grad * diff_ / result * xp.mask(xp.raw(result) != 0, grad)
    elif p == 1:
        g = grad * xp.sign(diff_)
    else:
        a = xp.raw(diff_)
        g = grad * xp.constant((np.sign(a) * np.abs(a) ** (p - 1) / xp.raw(result) ** (p - 1)).astype(a.dtype))
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


def cdist(x1, x2, p=2.0, compute_mode=None):
    diff_ = x1.unsqueeze(-2) - x2.unsqueeze(-3)
    if p == 2:
        return (diff_ * diff_).sum(-1).sqrt()
    if p == 1:
        return diff_.abs().sum(-1)
    return (diff_.abs() ** p).sum(-1) ** (1.0 / p)


declare("cdist", cdist, method=False, rules=[])


def cartesian_prod(*tensors):
    ts = [_t(x) for x in tensors]
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(*ts, indexing="ij")
    return stack([g.reshape(-1) for g in grids], 1)


declare("cartesian_prod", cartesian_prod, method=False, rules=[])
LINALG = {"multi_dot": multi_dot, "cross": lambda input, other, *, dim=-1: cross(input, other, dim),
          "vecdot": lambda x, y, *, dim=-1: (x * y).sum(dim)}
