"""Indexing: x[i], x[i] = v (CopySlices), index_select, narrow, select, gather; and the
writes that replace a tensor's values (copy_, fill_, zero_)."""
import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import GRAD, Node, edge_of
from gradrepl.engine.ops.common import as_tensor, check_leaf_inplace, no_grad_view, result
from gradrepl.engine.ops.cplx import COMPLEX_TO_REAL
from gradrepl.engine.ops.inplace import CopySlices, rebase_view
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.ops.shape import expand
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import (broadcast_shape, check_gather_scatter, cname, legacy_scalar, prod, pytype, shape_list,
                                  warn, wrap_dim)
from gradrepl.limits import check_numel


class TorchLayoutIndex(tuple):
    """An advanced index whose result PyTorch lays out otherwise than NumPy: the NumPy index,
    and the permutation from NumPy's result to PyTorch's (see _torch_layout)."""

    __slots__ = ()

    @property
    def numpy_index(self):
        return self[0]

    @property
    def torch_perm(self):
        return self[1]

    @property
    def inverse(self):
        return tuple(int(i) for i in np.argsort(self[1]))


def _index_backward(grad, xp, shape, index):
    if type(index) is TorchLayoutIndex:
        grad, index = xp.permute(grad, index.inverse), index.numpy_index
    return (xp.scatter(shape, index, grad),)


_INDEX = dict(ctx=("shape", "index"))
SelectBackward0 = rule("SelectBackward0", ("self",), ("grad placed at [index] in zeros(self.sizes())",),
                       **_INDEX)(_index_backward)
SliceBackward0 = rule("SliceBackward0", ("self",), ("grad placed at [slice] in zeros(self.sizes())",),
                      **_INDEX)(_index_backward)
IndexBackward0 = rule("IndexBackward0", ("self",), ("grad accumulated at [indices] in zeros(self.sizes())",),
                      **_INDEX)(_index_backward)
AliasBackward0 = rule("AliasBackward0", ("self",), ("grad",), **_INDEX)(_index_backward)
# x[:, None]: PyTorch's node is an unsqueeze; its rule here undoes the whole index
UnsqueezeBackward0 = rule("UnsqueezeBackward0", ("self",), ("grad.squeeze(dim)",), key="UnsqueezeBackward0 of indexing",
                          **_INDEX)(_index_backward)
IndexSelectBackward0 = rule("IndexSelectBackward0", ("self",),
                            ("zeros(self.sizes()).index_add(dim, index, grad)",), **_INDEX)(_index_backward)


@rule("IndexPutBackward0", ("grad",), ("grad[index]",), ctx=("shape", "index"))
def IndexPutBackward0(grad, xp, shape, index):
    return (xp.index(grad, index),)


# x[mask] = v (index_put_ on a tensor that is not a view): CopySlices' rule under PyTorch's name.
IndexPutBackward0_inplace = rule("IndexPutBackward0", ("self", "src"), CopySlices.formulas, ctx=CopySlices.ctx_names,
                                 saves=True, key="CopySlices as IndexPutBackward0")(CopySlices.fn)


def _overwrite_all(grad, xp, index, src_shape, has_base):
    gs = xp.index(grad, index)
    return (xp.zeros_like(grad) if has_base else None, gs if src_shape is None else xp.sum_to(gs, src_shape))


# x[:] = 2.0 (fill_) and x[...] = t (copy_): every element replaced, the old values get zeros_like(grad).
FillBackward3, CopyBackwards_inplace = (
    rule(name, ("self", "src"), ("zeros_like(grad)", "grad.sum_to_size(src.sizes())"), ctx=CopySlices.ctx_names,
         saves=True, key=f"CopySlices as {name}")(_overwrite_all)
    for name in ("FillBackward3", "CopyBackwards"))


def _sequence_as_tuple(index):
    """PyTorch's treatSequenceAsTuple (NumPy's old rule): a list of fewer than 32 items holding a
    tensor, a sequence, a slice, `...` or None indexes as the tuple of its items
    (x[[[0, 1], [1, 2]]] is x[[0, 1], [1, 2]]; x[[0, None]] is x[0, None])."""
    return type(index) is list and len(index) < 32 and any(
        type(i) in (Tensor, list, tuple, range, str, slice) or i is None or i is Ellipsis for i in index)


def _text_in(i):
    """'str' or 'bytes' when the index item is (or nests) one: PyTorch makes a tensor of it and fails."""
    if isinstance(i, (str, bytes)):
        return pytype(i)
    if isinstance(i, (list, tuple)):
        return next((n for n in map(_text_in, i) if n), None)
    return None


def _norm_index(t, index):
    """A NumPy index from a PyTorch one (Tensors become arrays), bounds-checked with PyTorch's messages."""
    items = index if type(index) is tuple or _sequence_as_tuple(index) else (index,)
    out = []
    nd = t._a.ndim
    dim = 0
    advanced = False
    n_real = sum(1 for i in items if i is not None and i is not Ellipsis and not (type(i) is Tensor and i.dtype is D.bool_))
    n_real += sum(i._a.ndim - 1 for i in items if type(i) is Tensor and i.dtype is D.bool_ and i._a.ndim > 1)
    if n_real > nd:
        first = next(i for i in items if i is not None and i is not Ellipsis)
        if nd == 0 and type(first) is slice:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        if nd == 0 and isinstance(first, int) and not isinstance(first, bool) and first != 0:
            raise IndexError(f"index {first} is out of bounds for dimension 0 with size 0")
        if nd == 0 and any(isinstance(i, int) for i in items):
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                             "in C++ to convert a 0-dim tensor to a number")
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    for i in items:
        if type(i) is Tensor and i._a.ndim == 0 and i._a.dtype.kind in "iu" and i.dtype is not D.uint8:
            i = int(i._a)           # PyTorch selects with a 0-d integer tensor as with its int
        text = _text_in(i)
        if text:
            raise TypeError(f"new(): invalid data type '{text}'")
        if i is Ellipsis:
            before = dim
            dim = nd - (n_real - before) + 0
            dim = nd - sum(1 for j in items[items.index(Ellipsis) + 1:] if j is not None and j is not Ellipsis)
            out.append(Ellipsis)
            continue
        if i is None:
            out.append(None)
            continue
        if type(i) is Tensor:
            if i.dtype is D.uint8:
                warn("UserWarning", "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                     "instead. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/IndexingUtils.h:37.)")
                out.append(_checked_mask(i._a.astype(bool), t._a.shape, dim))
                dim += i._a.ndim
                advanced = True
                continue
            if i.dtype is D.bool_:
                out.append(_checked_mask(i._a, t._a.shape, dim))
                dim += i._a.ndim
                advanced = True
                continue
            if i.dtype.is_floating_point:
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            i = i._a
            size = t._a.shape[dim]
            if i.size and (i.max() >= size or i.min() < -size):
                bad = int(i.max()) if i.max() >= size else int(i.min())
                raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
            out.append(i)
            dim += 1
            advanced = True
            continue
        if isinstance(i, bool):
            out.append(i)
            advanced = True
            continue
        if isinstance(i, int):
            size = t._a.shape[dim]
            if i >= size or i < -size:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
            out.append(i)
            dim += 1
            continue
        if isinstance(i, slice):
            if i.step is not None and i.step <= 0:
                raise ValueError("step must be greater than zero")
            out.append(i)
            dim += 1
            continue
        if isinstance(i, (list, tuple, range)):  # PyTorch indexes with a range as with its list
            check_numel(_nested_numel(i))      # [[0] * 10**4] * 10**4: sized before converting
            arr = np.asarray([x.item() if type(x) is Tensor else x for x in i], dtype=np.int64 if type(i) is range else None)
            if arr.dtype.kind == "V":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            if arr.dtype.kind == "f":   # PyTorch makes a long index of a list of floats (truncating)
                arr = arr.astype(np.int64)
            if arr.dtype.kind == "b":   # a list of bools is a mask, as torch.tensor of it
                out.append(_checked_mask(arr, t._a.shape, dim))
                dim += arr.ndim
                advanced = True
                continue
            size = t._a.shape[dim]
            if arr.dtype.kind in "iu" and arr.size and (arr.max() >= size or arr.min() < -size):
                bad = int(arr.max()) if arr.max() >= size else int(arr.min())
                raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
            out.append(arr)
            dim += 1
            advanced = True
            continue
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
                         "indices (got " + pytype(i) + ")")
    return tuple(out), advanced


def _basic_rule(idx, shape, single):
    """PyTorch's node for basic indexing: the last view op it applies. Inside a tuple a
    slice that keeps a whole dim is skipped (x[:, 0:4] is an alias); a lone slice always
    slices (x[:] is SliceBackward0)."""
    spec = AliasBackward0
    n_real = sum(1 for i in idx if i is not None and i is not Ellipsis)
    dim = 0
    for i in idx:
        if i is Ellipsis:
            dim += len(shape) - n_real
        elif i is None:
            spec = UnsqueezeBackward0
        elif isinstance(i, int):
            spec = SelectBackward0
            dim += 1
        elif isinstance(i, slice):
            if single or i.indices(shape[dim]) != (0, shape[dim], 1):
                spec = SliceBackward0
            dim += 1
    return spec


_INT64 = np.dtype(np.int64)
_max, _min = np.maximum.reduce, np.minimum.reduce   # without ndarray.max's Python wrapper


def getitem(t, index):
    if type(index) is Tensor and index._a.dtype == _INT64 and index._a.ndim and t._a.ndim:
        # x[long tensor] (a batch of rows, an embedding lookup): _norm_index's answer
        # for this one index, without its general walk
        i = index._a
        size = t._a.shape[0]
        check_numel(i.size * prod(t._a.shape[1:]))     # rows gathered: sized before the copy
        try:
            arr = t._a[i]       # NumPy's bounds are PyTorch's: [-size, size)
        except IndexError:
            hi, lo = _max(i, axis=None), _min(i, axis=None)
            bad = int(hi) if hi >= size else int(lo)
            raise IndexError(f"index {bad} is out of bounds for dimension 0 with size {size}") from None
        return result(arr, IndexBackward0, (t,), (), (t._a.shape, (i,)))
    idx, advanced = _norm_index(t, index)
    return getitem_raw(t, idx, advanced, single=type(index) is slice)


C_INT_NAMES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t"}


def check_int_fits(value, dtype):
    """A float written into an integer tensor: PyTorch refuses NaN, infinities and values out of range."""
    info = np.iinfo(dtype)
    if not (info.min <= value <= info.max):   # False for NaN too
        raise RuntimeError(f"value cannot be converted to type {C_INT_NAMES[dtype.name]} without overflow")


def _checked_mask(m, shape, dim):
    for j, n in enumerate(m.shape):
        if dim + j >= len(shape) or n != shape[dim + j]:
            raise IndexError(f"The shape of the mask {shape_list(m.shape)} at index {j} does not match the "
                             f"shape of the indexed tensor {shape_list(shape)} at index {dim + j}")
    return m


def _nested_numel(seq):
    """Elements of a nested list index, from its first items (ragged ones fail later)."""
    n = 1
    while isinstance(seq, (list, tuple, range)):
        n *= len(seq)
        if not len(seq):
            break
        seq = seq[0]
    return n


def _advanced_numel(shape, idx):
    """An upper bound of the elements advanced indexing gives, known before it runs."""
    items = idx if type(idx) is tuple else (idx,)
    consumed = sum((a.ndim if a.dtype == bool else 1) if type(a) is np.ndarray else
                   0 if a is None or a is Ellipsis else 1 for a in items)
    dim, total, arrays = 0, 1, []
    for a in items:
        if a is Ellipsis:
            k = max(len(shape) - consumed, 0)
            total *= prod(shape[dim:dim + k])
            dim += k
        elif type(a) is np.ndarray:
            if a.dtype == bool:
                arrays.append((int(np.count_nonzero(a)),))
                dim += a.ndim
            else:
                arrays.append(a.shape)
                dim += 1
        elif type(a) is slice:
            if dim < len(shape):
                total *= len(range(*a.indices(shape[dim])))
            dim += 1
        elif a is not None:
            dim += 1
    total *= prod(shape[dim:])
    if arrays:
        try:
            total *= prod(np.broadcast_shapes(*arrays))
        except ValueError:
            # PyTorch's message names each index tensor, a mask as one index per dim of its nonzeros
            shapes = []
            for a in items:
                if type(a) is np.ndarray:
                    shapes += [[int(np.count_nonzero(a))]] * a.ndim if a.dtype == bool else [list(a.shape)]
            raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                             + ", ".join(shape_list(sh) for sh in shapes)) from None
    return total


def _torch_layout(idx, nd, out_ndim):
    """The permutation taking NumPy's result of an advanced index to PyTorch's, or None when they
    agree. PyTorch selects the integer indices first: they do not count as advanced indices
    when it decides whether the index tensors are adjacent (their dims stay in place) or
    separated (their dims go first), so x[0, :, [1, 0]] is (4, 2, 2) for a (5, 4, 3, 2) x where
    NumPy gives (2, 4, 2)."""
    if type(idx) is not tuple or not any(isinstance(i, int) or i is Ellipsis for i in idx) or \
            any(isinstance(i, bool) for i in idx):
        return None
    kinds, width = [], []           # per token: "int", "adv" or "basic"; result dims of a basic one
    used = sum(1 if i is not None and i is not Ellipsis and type(i) is not np.ndarray else
               (i.ndim if type(i) is np.ndarray and i.dtype == bool else int(type(i) is np.ndarray)) for i in idx)
    for i in idx:
        if type(i) is np.ndarray:
            kinds.append("adv")
            width.append(0)
        elif isinstance(i, int):
            kinds.append("int")
            width.append(0)
        elif i is Ellipsis:         # an empty `...` separates index arrays for NumPy, not for PyTorch
            kinds.append("basic" if nd - used else "empty")
            width.append(nd - used)
        else:
            kinds.append("basic")
            width.append(1)
    if Ellipsis not in [i for i in idx if type(i) is not np.ndarray] and nd - used:
        kinds.append("basic")       # the dims no index names: a trailing `...`
        width.append(nd - used)

    def block_at(advanced_kinds, skip):
        pos = [k for k, kind in enumerate(kinds) if kind in advanced_kinds]
        if not pos:
            return None
        between = [kinds[k] for k in range(pos[0], pos[-1] + 1) if kinds[k] not in skip]
        if any(kind in ("basic", "empty") for kind in between):
            return 0
        return sum(width[:pos[0]])

    p_np, p_torch = block_at(("adv", "int"), ()), block_at(("adv",), ("int", "empty"))
    if p_torch is None or p_np == p_torch:
        return None
    block = out_ndim - sum(width)
    dims = list(range(out_ndim))
    moved = dims[p_np:p_np + block]
    rest = dims[:p_np] + dims[p_np + block:]
    return tuple(rest[:p_torch] + moved + rest[p_torch:])


def getitem_raw(t, idx, advanced=None, single=False):
    if advanced is None:
        advanced = not all(isinstance(i, (int, slice, type(None), type(Ellipsis))) for i in (idx if type(idx) is tuple else (idx,)))
    if advanced:
        check_numel(_advanced_numel(t._a.shape, idx))
    arr = t._a[idx]
    if advanced:
        if type(arr) is not np.ndarray:
            arr = np.asarray(arr)
        perm = _torch_layout(idx, t._a.ndim, arr.ndim)
        if perm is not None:
            arr = np.ascontiguousarray(arr.transpose(perm))
            idx = TorchLayoutIndex((idx, perm))
        return result(arr, IndexBackward0, (t,), (), (t._a.shape, idx))
    if type(arr) is not np.ndarray:
        arr = t._a[idx + (Ellipsis,)] if type(idx) is tuple else t._a[(idx, Ellipsis)]
    r = result(arr, _basic_rule(idx if type(idx) is tuple else (idx,), t._a.shape, single), (t,), (), (t._a.shape, idx))
    r._ver = t._ver
    r._base = t
    r._vidx = idx
    no_grad_view(r, t)
    return r


def index_backward(g, shape, index):
    """zeros(shape) with g put at index, differentiable (create_graph of indexing)."""
    z = np.zeros(shape, g._a.dtype)
    if all(isinstance(i, (int, slice, type(None), type(Ellipsis))) for i in (index if type(index) is tuple else (index,))):
        z[index] = g._a
    else:
        np.add.at(z, index, g._a)
    return result(z, IndexPutBackward0, (g,), (), (shape, index))


def _whole(t, idx):
    """An index that selects all of t (x[:], x[...], x[0:5] on 3 rows): PyTorch indexes
    nothing then and writes into t itself (fill_ or copy_, no CopySlices)."""
    items = idx if type(idx) is tuple else (idx,)
    dim = 0
    for i in items:
        if i is Ellipsis:
            dim = t._a.ndim - (len(items) - 1 - dim)
            continue
        if type(i) is not slice or i.step not in (None, 1) or i.indices(t._a.shape[dim])[:2] != (0, t._a.shape[dim]):
            return False
        dim += 1
    return True


def _views_first(idx, shape):
    """Whether PyTorch's x[idx] = v takes a view before its index_put_ (an integer, None or a
    slice that does not keep a whole dim), so that x's node is CopySlices."""
    items = idx if type(idx) is tuple else (idx,)
    named = sum(i.ndim if type(i) is np.ndarray and i.dtype == bool else 1
                for i in items if i is not None and i is not Ellipsis)
    dim = 0
    for i in items:
        if i is Ellipsis:
            dim += len(shape) - named
        elif i is None or (isinstance(i, int) and not isinstance(i, bool)):
            return True
        elif type(i) is slice:
            if i.indices(shape[dim]) != (0, shape[dim], 1):
                return True
            dim += 1
        else:
            dim += i.ndim if type(i) is np.ndarray and i.dtype == bool else 1
    return False


def setitem(t, index, value):
    items = index if type(index) is tuple or _sequence_as_tuple(index) else (index,)
    masks = [i for i in items if type(i) is Tensor and i._a.ndim and i.dtype in (D.uint8, D.bool_)]
    if len(masks) == 1 and masks[0].dtype is D.uint8 and not any(
            isinstance(i, (Tensor, list, range)) and i is not masks[0] for i in items) and \
            (type(value) is not Tensor or value._a.size == 1):
        # one mask and one value: PyTorch's masked_fill_, which takes no byte mask
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
    idx, advanced = _norm_index(t, index)
    whole = not advanced and _whole(t, idx)
    check_leaf_inplace(t, through_view=not (advanced or whole))
    wrong_dtype = False
    if type(value) is Tensor:
        v = value._a
        if v.dtype != t._a.dtype:
            # index_put_ (a list, an index tensor) needs the same dtype (checked after the shapes); a
            # lone mask with one value is masked_fill, and basic indexing copies into a view, both casting
            mask_fill = type(index) is Tensor and index._a.dtype == np.bool_ and v.size == 1
            wrong_dtype = advanced and not mask_fill
            if v.dtype.kind == "c" and t._a.dtype.kind != "c":   # copied as copy_ does: the real part
                warn("UserWarning", COMPLEX_TO_REAL)
                v = v.real
            v = v.astype(t._a.dtype)
    elif type(value) is complex:
        v = value
        if t._a.dtype.kind != "c":
            if value.imag != 0:
                raise RuntimeError(f"value cannot be converted to type {cname(t.dtype)} without overflow")
            v = value.real
    elif isinstance(value, (int, float, bool)):
        v = value
        if type(value) is float and t._a.dtype.kind in "iu":
            check_int_fits(value, t._a.dtype)
    elif type(value) in (list, tuple, str) or value is None:
        # PyTorch's __setitem__ takes a tensor or a number, never a sequence
        name = "NoneType" if value is None else type(value).__name__
        raise TypeError(f"can't assign a {name} to a torch.{t.dtype.legacy}")
    else:
        value = as_tensor(value)
        v = value._a.astype(t._a.dtype)
    if advanced:
        check_numel(_advanced_numel(t._a.shape, idx))
    target_shape = t._a[idx].shape
    perm = _torch_layout(idx, t._a.ndim, len(target_shape)) if advanced else None
    if perm is not None:            # the value is laid out as PyTorch's x[idx] is
        target_shape = tuple(target_shape[p] for p in perm)
    if type(v) is np.ndarray and v.shape != target_shape:
        try:
            np.broadcast_shapes(v.shape, target_shape)
            if len(v.shape) > len(target_shape) and any(s != 1 for s in v.shape[:len(v.shape) - len(target_shape)]):
                raise ValueError
            tail = v.shape[max(0, len(v.shape) - len(target_shape)):]
            if np.broadcast_shapes(tail, target_shape) != tuple(target_shape):   # value -> target only
                raise ValueError
        except ValueError:
            if not advanced:   # basic indexing copies the value (its own dtype) into a view: expand's message
                expand(value if type(value) is Tensor else _new(v), *target_shape)
            raise RuntimeError(f"shape mismatch: value tensor of shape {shape_list(v.shape)} cannot be broadcast to "
                               f"indexing result of shape {shape_list(target_shape)}") from None
        if len(v.shape) > len(target_shape):
            v = v.reshape(v.shape[len(v.shape) - len(target_shape):])
    if wrong_dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{legacy_scalar(t.dtype)} for the destination and {legacy_scalar(value.dtype)} for the source.")
    if perm is not None and type(v) is np.ndarray:
        v = np.broadcast_to(v, target_shape).transpose(TorchLayoutIndex((idx, perm)).inverse)
    t._a[idx] = v
    t._ver[0] += 1
    src_rg = type(value) is Tensor and value.requires_grad
    if GRAD[0] and (t.requires_grad or src_rg) and t._a.dtype.kind in "fV":  # integer tensors have no history
        spec = CopySlices
        if advanced and t._base is None and not _views_first(idx, t._a.shape):
            spec = IndexPutBackward0_inplace    # index_put_ on a tensor that is not a view
        elif whole:
            scalar = type(value) is not Tensor or value._a.ndim == 0
            spec = FillBackward3 if scalar else CopyBackwards_inplace
        node = Node(spec, (edge_of(t) if t.requires_grad else None,
                                          edge_of(value) if src_rg else None), (),
                    (idx if perm is None else TorchLayoutIndex((idx, perm)), value._a.shape if src_rg else None,
                     t.requires_grad))
        t._fn, t._onr = node, 0
        rebase_view(t, t)


declare("__getitem__", getitem, method=False, function=False,
        rules=[SelectBackward0, SliceBackward0, IndexBackward0, AliasBackward0, UnsqueezeBackward0],
        dunders={"__getitem__": getitem})
declare("__setitem__", setitem, method=False, function=False,
        rules=[CopySlices, IndexPutBackward0_inplace, FillBackward3, CopyBackwards_inplace],
        dunders={"__setitem__": setitem})


@declare("index_select", rules=[IndexSelectBackward0])
def index_select(self, dim, index):
    if index._a.dtype.kind not in "iu" or index._a.dtype.itemsize < 4:
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    d = wrap_dim(dim, self._a.ndim)
    size = self._a.shape[d] if self._a.ndim else 1
    flat = index._a.reshape(-1)
    bad = (flat < 0) | (flat >= size)
    if bad.any():
        if self._a.ndim == 2 and d == 1:   # ATen's index_select_out_cpu_dim1_ reports the element
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={int(flat[bad.argmax()])} axis_dim={size}")
        raise IndexError("index out of range in self")
    idx = (slice(None),) * d + (index._a,)
    check_numel(prod(self._a.shape[:d]) * index._a.size * prod(self._a.shape[d + 1:]))
    return result(self._a[idx], IndexSelectBackward0, (self,), (), (self._a.shape, idx))


@declare("narrow", rules=[SliceBackward0])
def narrow(self, dim, start, length):
    if self._a.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    d = wrap_dim(dim, self._a.ndim)
    size = self._a.shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start > size - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return getitem_raw(self, (slice(None),) * d + (slice(start, start + length),), single=True)  # always a slice


@declare("select", rules=[SelectBackward0])
def select(self, dim, index):
    d = wrap_dim(dim, self._a.ndim)
    return getitem(self, (slice(None),) * d + (index,))


@rule("GatherBackward0", ("self",), ("zeros(self.sizes()).scatter_add(dim, index, grad)",), saved=("index",),
      ctx=("shape", "dim"))
def GatherBackward0(grad, xp, index, shape, dim):
    if len(xp.raw(grad).shape) != len(shape):     # a 0-d index gathered one element
        grad = xp.reshape(grad, (1,))
    return (xp.scatter_add_along(shape, dim, xp.raw(index), grad),)


@declare("gather", rules=[GatherBackward0])
def gather(self, dim, index):
    if max(index._a.ndim, 1) != max(self._a.ndim, 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    if self._a.ndim == 0:                          # a 0-d tensor counts as one element here
        return gather(self.reshape(1), dim, index.reshape(-1)).reshape(index.shape)
    d = wrap_dim(dim, self._a.ndim)
    idx = index._a
    if idx.dtype.kind not in "iu" or idx.dtype.itemsize < 4:
        raise RuntimeError("gather(): Expected dtype int32/int64 for index")
    check_gather_scatter("gather", self._a.shape, d, idx)
    if idx.ndim == 0:
        return result(self._a[idx], GatherBackward0, (self,), (index.reshape(1),), (self._a.shape, 0))
    a = self._a
    if a.ndim == 0:
        out = np.broadcast_to(a, idx.shape).copy()
    elif idx.ndim == 0:
        out = np.take_along_axis(a, idx.reshape((1,) * a.ndim), axis=d).reshape(())
    else:   # index no larger than self apart from dim: gather from the leading block
        block = a[tuple(slice(None) if k == d else slice(0, n) for k, n in enumerate(idx.shape))]
        out = np.take_along_axis(block, idx, axis=d)
    return result(out, GatherBackward0, (self,), (index,), (self._a.shape, d))


# ================================================================ whole-tensor writes
@rule("CopyBackwards", ("self", "src"), ("zeros_like(grad)", "grad"), ctx=("src_shape",))
def CopyBackwards(grad, xp, src_shape):
    return (xp.zeros_like(grad), xp.sum_to(grad, src_shape))


@declare("copy_", method="copy_", function=False, rules=[CopyBackwards])
def copy_(self, src):
    src = as_tensor(src)
    check_leaf_inplace(self)
    broadcast_shape(src._a.shape, self._a.shape, out=self._a.shape)
    if src._a.dtype.kind == "c" and self._a.dtype.kind != "c":
        warn("UserWarning", COMPLEX_TO_REAL)
        self._a[...] = src._a.real
    else:
        self._a[...] = src._a
    self._ver[0] += 1
    if GRAD[0] and (self.requires_grad or src.requires_grad):
        self._fn = Node(CopyBackwards, (edge_of(self), edge_of(src)), (), src._a.shape)
        self._onr = 0
    return self


@rule("ZeroBackward0", ("self",), ("zeros_like(grad)",))
def ZeroBackward0(grad, xp):
    return (xp.zeros_like(grad),)


@rule("FillBackward2", ("self",), ("zeros_like(grad)",))
def FillBackward2(grad, xp):
    return (xp.zeros_like(grad),)


def _fill_inplace(t, value, spec):
    check_leaf_inplace(t)
    t._a[...] = value
    t._ver[0] += 1
    if GRAD[0] and t._fn is not None:
        t._fn = Node(spec, (edge_of(t),), (), None)
        t._onr = 0
    return t


@declare("zero_", function=False, rules=[ZeroBackward0])
def zero_(self):
    return _fill_inplace(self, 0, ZeroBackward0)


@declare("fill_", function=False, rules=[FillBackward2, FillBackward3])
def fill_(self, value):
    if type(value) is Tensor:  # fill_(Tensor): FillBackward3, the value gets grad.sum()
        if value._a.ndim:
            raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._a.ndim} dimensions.")
        setitem(self, Ellipsis, value)
        return self
    return _fill_inplace(self, value, FillBackward2)
