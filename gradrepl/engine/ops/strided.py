"""as_strided and its kin: views (and scatters) of a tensor's storage by explicit sizes,
strides and storage offset, as PyTorch defines them. A view's storage is its root base's
array; gradients flow back to that root (PyTorch replays a view of a view as an
as_strided of the base)."""
import numpy as np

from gradrepl.engine.ops.common import check_leaf_inplace, result
from gradrepl.engine.ops.common import view as make_view
from gradrepl.engine.ops.meta import storage_offset, strides
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.tensor import Tensor
from gradrepl.engine.util import pytype


def _root(t):
    while t._base is not None:
        t = t._base
    return t


def _ints(value, what):
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),)
    if not isinstance(value, (tuple, list)) or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                                      for v in value):
        raise TypeError(f"as_strided(): argument '{what}' must be tuple of ints, not {pytype(value)}")
    return tuple(int(v) for v in value)


def _check(size, stride, offset, itemsize, storage_size):
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: "
                           f"[{', '.join(map(str, stride))}]")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{', '.join(map(str, size))}] and "
                           f"strides=[{', '.join(map(str, stride))}]")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    need = 0 if 0 in size else offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))
    if need > storage_size:
        raise RuntimeError(f"setStorage: sizes [{', '.join(map(str, size))}], strides [{', '.join(map(str, stride))}], "
                           f"storage offset {offset}, and itemsize {itemsize} requiring a storage size of "
                           f"{need * itemsize} are out of bounds for storage of size {storage_size * itemsize}")


def flat_index(size, stride, offset):
    """The storage position of every element of a (size, stride, offset) geometry."""
    idx = np.full(size, offset, np.int64)
    for d, (n, s) in enumerate(zip(size, stride)):
        shape = [1] * len(size)
        shape[d] = n
        idx = idx + (np.arange(n, dtype=np.int64) * s).reshape(shape)
    return idx


def _storage(root):
    """root's storage as a 1-D array (a root owns all of its memory, strides never negative)."""
    a = root._a
    st = strides(root)
    n = 0 if a.size == 0 else 1 + sum((k - 1) * s for k, s in zip(a.shape, st))
    if any(s < 0 for s in st):
        a = np.ascontiguousarray(a)
        st, n = tuple(int(np.prod(a.shape[d + 1:])) for d in range(a.ndim)), a.size
    return np.lib.stride_tricks.as_strided(a, (n,), (a.itemsize,)), st


@rule("AsStridedBackward0", ("self",), ("as_strided_backward(grad, self geometry, size, stride, storage_offset)",),
      ctx=("storage_size", "index", "base_index"), key="AsStridedBackward0 (as_strided)")
def AsStridedViewBackward0(grad, xp, storage_size, index, base_index):
    storage = xp.scatter((storage_size,), (index,), grad)
    return (xp.index(storage, (base_index,)),)


@declare("as_strided", rules=[AsStridedViewBackward0])
def as_strided(self, size, stride, storage_offset=None):
    size, stride = _ints(size, "size"), _ints(stride, "stride")
    root = _root(self)
    offset = globals()["storage_offset"](self) if storage_offset is None else int(storage_offset)
    storage, root_stride = _storage(root)
    _check(size, stride, offset, root._a.itemsize, storage.shape[0])
    arr = np.lib.stride_tricks.as_strided(storage[offset:] if storage.shape[0] > offset else storage, size,
                                          tuple(s * root._a.itemsize for s in stride))
    if not storage.flags.writeable:
        arr.flags.writeable = False
    ctx = (storage.shape[0], flat_index(size, stride, offset), flat_index(root._a.shape, root_stride, 0))
    return make_view(root, arr, AsStridedViewBackward0, ctx)


@declare("as_strided_", rules=[AsStridedViewBackward0])
def as_strided_(self, size, stride, storage_offset=None):
    check_leaf_inplace(self)
    v = as_strided(self, size, stride, storage_offset)
    self._a = v._a
    if v._fn is not None:
        self._fn = v._fn
    if self._base is None and v._base is not self:
        self._base = v._base
    return self


@rule("AsStridedScatterBackward0", ("self", "src"),
      ("grad at the scattered elements, zero elsewhere (PyTorch 2.13's formula)",
       "grad.as_strided(size, stride, storage_offset)"),
      ctx=("shape", "index", "outside"))
def AsStridedScatterBackward0(grad, xp, shape, index, outside):
    flat = xp.reshape(grad, (-1,))
    return (xp.reshape(xp.zero_at(flat, (outside,)), shape), xp.index(flat, (index,)))


@declare("as_strided_scatter", rules=[AsStridedScatterBackward0])
def as_strided_scatter(self, src, size, stride, storage_offset=None):
    if type(src) is not Tensor:
        raise TypeError(f"as_strided_scatter(): argument 'src' (position 2) must be Tensor, not {pytype(src)}")
    size, stride = _ints(size, "size"), _ints(stride, "stride")
    offset = 0 if storage_offset is None else int(storage_offset)
    out = np.array(self._a, copy=True, order="C").reshape(-1)
    _check(size, stride, offset, out.itemsize, out.shape[0])
    if tuple(src._a.shape) != size:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"[{', '.join(map(str, src._a.shape))}], slice size = [{', '.join(map(str, size))}]")
    index = flat_index(size, stride, offset)
    out[index] = src._a.astype(out.dtype, copy=False)
    outside = np.setdiff1d(np.arange(out.shape[0]), index)
    return result(out.reshape(self._a.shape), AsStridedScatterBackward0, (self, src), (), (self._a.shape, index,
                                                                                             outside))
