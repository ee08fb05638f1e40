"""Shape ops: views (view, reshape, squeeze, transpose, permute, expand, ...), copies
(repeat, clone, flip), splitting and joining (split, unbind, cat, stack)."""
import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import GRAD, Node, edge_of
from gradrepl.engine.ops.common import check_leaf_inplace, multi, result
from gradrepl.engine.ops.common import view as make_view
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import infer_shape, needs_copy, prod, pytype, shape_args, shape_list, warn, wrap_dim
from gradrepl.limits import check_numel


def _reshape_back(grad, xp, shape):
    return (xp.reshape(grad, shape),)


ViewBackward0 = rule("ViewBackward0", ("self",), ("grad.reshape(self.sizes())",), ctx=("shape",))(_reshape_back)
UnsafeViewBackward0 = rule("UnsafeViewBackward0", ("self",), ("grad.reshape(self.sizes())",), ctx=("shape",),
                           key="ReshapeCopy")(_reshape_back)
SqueezeBackward0 = rule("SqueezeBackward0", ("self",), ("grad.reshape(self.sizes())",), ctx=("shape",))(_reshape_back)
SqueezeBackward1 = rule("SqueezeBackward1", ("self",), ("grad.unsqueeze(dim)",), ctx=("shape",))(_reshape_back)
SqueezeBackward2 = rule("SqueezeBackward2", ("self",), ("grad.unsqueeze(dims)",), ctx=("shape",))(_reshape_back)
UnsqueezeBackward0 = rule("UnsqueezeBackward0", ("self",), ("grad.squeeze(dim)",), ctx=("shape",))(_reshape_back)
# the in-place forms (x.squeeze_(), x.unsqueeze_(0)) record nodes of their own names
SqueezeBackward3 = rule("SqueezeBackward3", ("self",), ("grad.reshape(self.sizes())",), ctx=("shape",))(_reshape_back)
SqueezeBackward4 = rule("SqueezeBackward4", ("self",), ("grad.unsqueeze(dim)",), ctx=("shape",),
                        key="SqueezeInplaceDim")(_reshape_back)  # matmul records a two-input SqueezeBackward4
SqueezeBackward5 = rule("SqueezeBackward5", ("self",), ("grad.unsqueeze(dims)",), ctx=("shape",))(_reshape_back)
UnsqueezeBackward1 = rule("UnsqueezeBackward1", ("self",), ("grad.squeeze(dim)",), ctx=("shape",))(_reshape_back)


@rule("TBackward0", ("self",), ("grad.t()",))
def TBackward0(grad, xp):
    return (xp.mT(grad) if grad.ndim == 2 else grad,)


TBackward1 = rule("TBackward1", ("self",), ("grad.t()",))(TBackward0.fn)


@rule("TransposeBackward0", ("self",), ("grad.transpose(dim0, dim1)",), ctx=("dim0", "dim1"))
def TransposeBackward0(grad, xp, dim0, dim1):
    return (grad if dim0 == dim1 else xp.swap(grad, dim0, dim1),)   # dim0 == dim1: a 0-d tensor


TransposeBackward1 = rule("TransposeBackward1", ("self",), ("grad.transpose(dim0, dim1)",),
                          ctx=("dim0", "dim1"))(TransposeBackward0.fn)


def restride(self, arr, spec, ctx):
    """An in-place shape op (x.unsqueeze_(0), x.t_()): self takes the view `arr` of its own
    memory, its version counter moves and, with grad on, spec's node records the change."""
    check_leaf_inplace(self)
    node = Node(spec, (edge_of(self),), (), ctx) if GRAD[0] and self.requires_grad else None
    self._a = arr
    self._ver[0] += 1
    self._vidx = None   # no longer the base's index: later in-place ops do not rewrite the base
    if node is not None:
        self._fn, self._onr = node, 0
    return self


@rule("PermuteBackward0", ("self",), ("grad.permute(inverse(dims))",), ctx=("dims",))
def PermuteBackward0(grad, xp, dims):
    return (xp.permute(grad, tuple(int(d) for d in np.argsort(dims))),)


@rule("ExpandBackward0", ("self",), ("grad.sum_to_size(self.sizes())",), ctx=("shape",))
def ExpandBackward0(grad, xp, shape):
    return (xp.sum_to(grad, shape),)


@rule("RepeatBackward0", ("self",), ("sum of grad over the repeated tiles",), ctx=("shape", "repeats"))
def RepeatBackward0(grad, xp, shape, repeats):
    full = (1,) * (len(repeats) - len(shape)) + tuple(shape)
    split = []
    for r, s in zip(repeats, full):
        split += [r, s]
    grad = xp.reshape(grad, tuple(split))
    grad = xp.sum(grad, tuple(range(0, 2 * len(repeats), 2)), False)
    return (xp.reshape(grad, shape),)


@rule("CloneBackward0", ("self",), ("grad",))
def CloneBackward0(grad, xp):
    return (grad,)


@rule("FlipBackward0", ("self",), ("grad.flip(dims)",), ctx=("dims",))
def FlipBackward0(grad, xp, dims):
    return (xp.flip(grad, dims),)


def _split_backward(grads, xp, shape, dim, sizes):
    like = next(g for g in grads if g is not None)
    parts = []
    for g, s in zip(grads, sizes):
        if g is None:
            sh = list(shape)
            sh[dim] = s
            g = xp.zeros(tuple(sh), like)
        parts.append(g)
    return (xp.cat(parts, dim),)


SplitBackward0 = rule("SplitBackward0", ("self",), ("cat(grads, dim)",), ctx=("shape", "dim", "sizes"),
                      multi=True)(_split_backward)
SplitWithSizesBackward0 = rule("SplitWithSizesBackward0", ("self",), ("cat(grads, dim)",),
                               ctx=("shape", "dim", "sizes"), multi=True)(_split_backward)


@rule("UnbindBackward0", ("self",), ("stack(grads, dim)",), ctx=("shape", "dim", "sizes"), multi=True)
def UnbindBackward0(grads, xp, shape, dim, sizes):
    like = next(g for g in grads if g is not None)
    parts = []
    for g in grads:
        if g is None:
            g = xp.zeros(tuple(shape[:dim] + shape[dim + 1:]), like)
        parts.append(xp.unsqueeze_dims(g, (dim,)))
    return (xp.cat(parts, dim),)


@declare("view", function=False, rules=[ViewBackward0])
def view(self, *shape):
    shape = shape_args(shape)
    if len(shape) == 1 and isinstance(shape[0], D.DType):
        raise RuntimeError("view(dtype) is not supported in gradrepl")
    new = infer_shape(shape, self._a.size)
    if not self._a.flags.c_contiguous and self._a.size > 1 and needs_copy(self._a, new):
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension spans "
            "across two contiguous subspaces). Use .reshape(...) instead.")
    return make_view(self, self._a.reshape(new), ViewBackward0, self._a.shape)


@declare("view_as", function=False, rules=[ViewBackward0])
def view_as(self, other):
    return self.view(*other._a.shape)


@declare("reshape", rules=[ViewBackward0, UnsafeViewBackward0])
def reshape(self, *shape):
    shape = shape_args(shape)
    new = infer_shape(shape, self._a.size)
    if not self._a.flags.c_contiguous and self._a.size > 1 and needs_copy(self._a, new):
        return result(np.ascontiguousarray(self._a).reshape(new), UnsafeViewBackward0, (self,), (), self._a.shape)
    return make_view(self, self._a.reshape(new), ViewBackward0, self._a.shape)


@declare("reshape_as", function=False, rules=[ViewBackward0, UnsafeViewBackward0])
def reshape_as(self, other):
    return self.reshape(*other._a.shape)


@declare("flatten", rules=[ViewBackward0, UnsafeViewBackward0])
def flatten(self, start_dim=0, end_dim=-1):
    nd = self._a.ndim
    if nd == 0:
        return self.reshape(1)
    s, e = wrap_dim(start_dim, nd), wrap_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return self
    sh = self._a.shape
    return self.reshape(*sh[:s], -1, *sh[e + 1:])


def _squeezed(self, dim):
    """The squeezed shape and which of the three squeeze nodes (all dims, one, several)."""
    sh = self._a.shape
    if dim is None:
        return tuple(s for s in sh if s != 1), 0
    dims = dim if isinstance(dim, (tuple, list)) else (dim,)
    dd = {wrap_dim(d, self._a.ndim) for d in dims}
    if not sh:
        dd = set()
    return tuple(s for i, s in enumerate(sh) if not (i in dd and s == 1)), 2 if isinstance(dim, (tuple, list)) else 1


def squeeze_(self, dim=None):
    new, kind = _squeezed(self, dim)
    return restride(self, self._a.reshape(new), (SqueezeBackward3, SqueezeBackward4, SqueezeBackward5)[kind],
                    self._a.shape)


@declare("squeeze", rules=[SqueezeBackward0, SqueezeBackward1, SqueezeBackward2, SqueezeBackward3, SqueezeBackward4,
                           SqueezeBackward5], inplace=squeeze_)
def squeeze(self, dim=None):
    new, kind = _squeezed(self, dim)
    return make_view(self, self._a.reshape(new), (SqueezeBackward0, SqueezeBackward1, SqueezeBackward2)[kind],
                     self._a.shape)


def unsqueeze_(self, dim):
    d = wrap_dim(dim, self._a.ndim + 1)
    return restride(self, np.expand_dims(self._a, d), UnsqueezeBackward1, self._a.shape)


@declare("unsqueeze", rules=[UnsqueezeBackward0, UnsqueezeBackward1], inplace=unsqueeze_)
def unsqueeze(self, dim):
    d = wrap_dim(dim, self._a.ndim + 1)
    return make_view(self, np.expand_dims(self._a, d), UnsqueezeBackward0, self._a.shape)


def t_(self):
    nd = self._a.ndim
    if nd > 2:
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {nd}D")
    return restride(self, self._a.T, TBackward1, None)


@declare("t", rules=[TBackward0, TBackward1], inplace=t_)
def t(self):
    nd = self._a.ndim
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    return make_view(self, self._a.T, TBackward0, None)


@declare("T", function=False, attribute=True, rules=[PermuteBackward0])
def T(self):
    nd = self._a.ndim
    if nd == 0:
        warn("UserWarning", "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.")
    elif nd != 2:
        warn("UserWarning", "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
             "deprecated and it will throw an error in a future release. Consider `x.mT` to transpose batches of "
             "matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")
    return make_view(self, np.transpose(self._a), PermuteBackward0, tuple(range(nd))[::-1])


@declare("mT", function=False, attribute=True, rules=[TransposeBackward0])
def mT(self):
    if self._a.ndim == 0:
        return self
    if self._a.ndim < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return self.transpose(-2, -1)


def transpose_(self, dim0, dim1):
    nd = self._a.ndim
    d0, d1 = wrap_dim(dim0, nd), wrap_dim(dim1, nd)
    return restride(self, np.swapaxes(self._a, d0, d1) if nd else self._a[()], TransposeBackward1, (d0, d1))


@declare("transpose", aliases=("swapaxes",), rules=[TransposeBackward0, TransposeBackward1], inplace=transpose_)
def transpose(self, dim0, dim1):
    nd = self._a.ndim
    d0, d1 = wrap_dim(dim0, nd), wrap_dim(dim1, nd)
    return make_view(self, np.swapaxes(self._a, d0, d1) if nd else self._a[()], TransposeBackward0, (d0, d1))



def resize_(self, *size, memory_format=None):
    """x.resize_(2, 3): x takes the shape, keeping its elements in memory order (cut short,
    or grown with zeros where PyTorch leaves the new memory uninitialised). No history."""
    if not size:
        raise TypeError('resize_() missing 1 required positional arguments: "size"')
    if len(size) == 1 and not isinstance(size[0], (tuple, list, int)):
        raise TypeError(f"resize_(): argument 'size' (position 1) must be tuple of ints, not {pytype(size[0])}")
    shape = shape_args(size)
    if any(s < 0 for s in shape):
        raise RuntimeError("numel: integer multiplication overflow")
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    check_leaf_inplace(self)
    n = prod(shape)
    check_numel(n, shape)
    a = self._a
    if shape != a.shape:
        if a.flags.c_contiguous and n <= a.size:
            a = a.reshape(-1)[:n].reshape(shape)      # the same memory, as PyTorch's storage
        else:
            flat = a.ravel(order="K")
            grown = np.zeros(n, a.dtype)
            grown[:min(n, flat.size)] = flat[:n]
            a = grown.reshape(shape)
    self._a = a
    self._ver[0] += 1
    self._vidx = None
    return self


def resize_as_(self, the_template, memory_format=None):
    if type(the_template) is not Tensor:
        raise TypeError(f"resize_as_(): argument 'the_template' (position 1) must be Tensor, not "
                        f"{pytype(the_template)}")
    return resize_(self, the_template._a.shape)


declare("resize_", resize_, function=False, rules=[])
declare("resize_as_", resize_as_, function=False, rules=[])


@declare("permute", rules=[PermuteBackward0])
def permute(self, *dims):
    dims = shape_args(dims)
    nd = self._a.ndim
    if len(dims) != nd:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
            f"desired ordering of dimensions i.e. input.dim() = {nd} is not equal to len(dims) = {len(dims)}")
    dd = tuple(wrap_dim(d, nd) for d in dims)
    if len(set(dd)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return make_view(self, np.transpose(self._a, dd), PermuteBackward0, dd)


@declare("expand", function=False, rules=[ExpandBackward0])
def expand(self, *sizes):
    sizes = shape_args(sizes)
    sh = self._a.shape
    if len(sizes) < len(sh):
        raise RuntimeError(
            f"expand({self.dtype.tensor_type_string()}{{{shape_list(sh)}}}, size={shape_list(sizes)}): the number of sizes "
            f"provided ({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({len(sh)})")
    lead = len(sizes) - len(sh)
    for i in range(len(sizes) - 1, lead - 1, -1):
        s, cur = sizes[i], sh[i - lead]
        if s != -1 and cur != 1 and cur != s:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({cur}) at non-singleton "
                f"dimension {i}.  Target sizes: {shape_list(sizes)}.  Tensor sizes: {shape_list(sh)}")
    target = []
    for i, s in enumerate(sizes):
        if i >= lead:
            cur = sh[i - lead]
            if s == -1:
                s = cur
            elif cur != 1 and cur != s:
                raise RuntimeError(
                    f"The expanded size of the tensor ({s}) must match the existing size ({cur}) at non-singleton "
                    f"dimension {i}.  Target sizes: {shape_list(sizes)}.  Tensor sizes: {shape_list(sh)}")
        elif s < 0:
            raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a leading, non-existing dimension {i}")
        target.append(int(s))
    check_numel(prod(target), target)
    # no element repeated (only size-1 dims added or kept): a plain, writable view
    arr = self._a.reshape(tuple(target)) if prod(target) == self._a.size else np.broadcast_to(self._a, tuple(target))
    return make_view(self, arr, ExpandBackward0, sh)


@declare("expand_as", function=False, rules=[ExpandBackward0])
def expand_as(self, other):
    return self.expand(*other._a.shape)


@declare("repeat", function=False, rules=[RepeatBackward0])
def repeat(self, *reps):
    reps = shape_args(reps)
    sh = self._a.shape
    if len(reps) < len(sh):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    full = (1,) * (len(reps) - len(sh)) + sh
    check_numel(prod(r * s for r, s in zip(reps, full)))
    out = np.tile(self._a.reshape(full), reps)
    return result(out, RepeatBackward0, (self,), (), (sh, tuple(reps)))


@declare("contiguous", function=False, rules=[CloneBackward0])
def contiguous(self):
    if self._a.flags.c_contiguous:
        return self
    return result(np.ascontiguousarray(self._a), CloneBackward0, (self,), (), None)


@declare("clone", rules=[CloneBackward0])
def clone(self, *, memory_format=None):
    """torch.preserve_format (the default) keeps the input's order of strides (a transposed
    tensor's copy stays transposed), which decides the order later kernels walk it in;
    torch.contiguous_format gives a row-major copy."""
    order = "C" if getattr(memory_format, "name", "preserve_format") == "contiguous_format" else "K"
    return result(self._a.copy(order=order), CloneBackward0, (self,), (), None)


@declare("flip", rules=[FlipBackward0])
def flip(self, *dims):
    dims = shape_args(dims)
    dd = tuple(wrap_dim(d, self._a.ndim) for d in dims)
    if not self._a.ndim:  # a 0-d tensor flips over dim 0 or -1 as over nothing
        dd = ()
    return result(np.flip(self._a, dd).copy(), FlipBackward0, (self,), (), dd)


@declare("split", rules=[SplitBackward0, SplitWithSizesBackward0])
def split(self, split_size, dim=0):
    d = wrap_dim(dim, self._a.ndim)
    n = self._a.shape[d]
    if isinstance(split_size, int):
        if split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
        if split_size == 0 and n:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
        sizes = [split_size] * (n // split_size) + ([n % split_size] if n % split_size else []) if split_size else [0]
        spec = SplitBackward0
    else:
        sizes = list(split_size)
        if any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but got "
                               f"split_sizes={shape_list(sizes)}")
        if sum(sizes) != n:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                               f"dimension {d}), but got split_sizes={shape_list(sizes)}")
        spec = SplitWithSizesBackward0
    return multi(self, np.split(self._a, np.cumsum(sizes)[:-1], axis=d), spec, (self._a.shape, d, sizes))


@declare("chunk", rules=[SplitBackward0])
def chunk(self, chunks, dim=0):
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = wrap_dim(dim, self._a.ndim)
    n = self._a.shape[d]
    size = -(-n // chunks)
    return self.split(size, d)


@declare("unbind", rules=[UnbindBackward0])
def unbind(self, dim=0):
    d = wrap_dim(dim, self._a.ndim)
    parts = [np.take(self._a, i, axis=d) for i in range(self._a.shape[d])]
    return multi(self, parts, UnbindBackward0, (self._a.shape, d, None))


@rule("CatBackward0", ("tensors",), ("grad.split(sizes, dim)",), ctx=("dim", "sizes"))
def CatBackward0(grad, xp, dim, sizes):
    return tuple(xp.split(grad, dim, sizes))


@declare("cat", aliases=("concat",), method=False, rules=[CatBackward0], bare=True)
def cat(tensors, dim=0, out=None):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"cat(): argument 'tensors' (position 1) must be tuple of Tensors, not {pytype(tensors)}")
    tensors = list(tensors)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if type(t) is not Tensor:
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {pytype(t)}")
    for i, t in enumerate(tensors):
        if t._a.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    ref = tensors[0]._a
    d = wrap_dim(dim, ref.ndim)
    for i, t in enumerate(tensors[1:], 1):
        a = t._a
        if a.ndim != ref.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.ndim} and {a.ndim}")
        for k in range(ref.ndim):
            if k != d and a.shape[k] != ref.shape[k]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size {ref.shape[k]} "
                                   f"but got size {a.shape[k]} for tensor number {i} in the list.")
    rd = D.result_type([t for t in tensors])
    arrs = [t._a.astype(rd.np, copy=False) for t in tensors]
    check_numel(sum(a.size for a in arrs))
    t = _new(np.concatenate(arrs, axis=d))
    if GRAD[0] and any(x.requires_grad for x in tensors):
        t._fn = Node(CatBackward0, tuple(edge_of(x) for x in tensors), (), (d, [x._a.shape[d] for x in tensors]))
    return t


@rule("StackBackward0", ("tensors",), ("grad.unbind(dim)",), ctx=("dim", "n"))
def StackBackward0(grad, xp, dim, n):
    parts = xp.split(grad, dim, [1] * n)
    return tuple(xp.reshape(p, p.shape[:dim] + p.shape[dim + 1:]) for p in parts)


@declare("stack", method=False, rules=[StackBackward0], bare=True)
def stack(tensors, dim=0, out=None):
    if type(tensors) not in (list, tuple):
        raise TypeError(f"stack(): argument 'tensors' (position 1) must be tuple of Tensors, not {pytype(tensors)}")
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    for i, t in enumerate(tensors[1:], 1):
        if t._a.shape != tensors[0]._a.shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {shape_list(tensors[0]._a.shape)} "
                               f"at entry 0 and {shape_list(t._a.shape)} at entry {i}")
    d = wrap_dim(dim, tensors[0]._a.ndim + 1)
    rd = D.result_type(tensors)
    t = _new(np.stack([t._a.astype(rd.np, copy=False) for t in tensors], axis=d))
    if GRAD[0] and any(x.requires_grad for x in tensors):
        t._fn = Node(StackBackward0, tuple(edge_of(x) for x in tensors), (), (d, len(tensors)))
    return t
