"""What a tensor tells about its storage and kind (no computation, no autograd): strides
and storage offset in elements, as PyTorch reports them, and the kind queries."""
import operator

import numpy as np

from gradrepl.engine import autograd as A
from gradrepl.engine.ops.registry import declare
from gradrepl.engine.tensor import Tensor, TypedStorage, is_inference
from gradrepl.engine.util import warn, wrap_dim


def _root(t):
    while t._base is not None:
        t = t._base
    return t


def strides(t):
    """PyTorch's strides, in elements: NumPy's, except that a size-1 dimension gets the
    stride a contiguous tensor would give it (PyTorch's unsqueeze/view convention)."""
    a = t._a
    item = a.itemsize
    st = [s // item for s in a.strides]
    for d in range(a.ndim - 1, -1, -1):
        if a.shape[d] == 1:
            st[d] = st[d + 1] * max(a.shape[d + 1], 1) if d + 1 < a.ndim else 1
    return tuple(st)


@declare("stride", function=False, rules=[], returns_tensor=False)
def stride(self, dim=None):
    st = strides(self)
    if dim is None:
        return st
    return st[wrap_dim(dim, self._a.ndim)]


@declare("storage_offset", function=False, rules=[], returns_tensor=False)
def storage_offset(self):
    root = _root(self)
    if root is self:
        return 0
    start = self._a.__array_interface__["data"][0]
    base = root._a.__array_interface__["data"][0]
    return (start - base) // self._a.itemsize


@declare("data_ptr", function=False, rules=[], returns_tensor=False)
def data_ptr(self):
    return self._a.__array_interface__["data"][0]


STORAGE_ATTRS = frozenset(("dtype", "device", "size", "data_ptr", "element_size", "nbytes", "tolist", "type",
                           "is_shared"))


_STORAGE_WARNED = [False]   # PyTorch warns the first time only


@declare("storage", function=False, rules=[], returns_tensor=False)
def storage(self):
    if not _STORAGE_WARNED[0]:
        _STORAGE_WARNED[0] = True
        warn("UserWarning", "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be "
             "the only storage class. This should only matter to you if you are using storages directly.  To access "
             "UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()")
    return TypedStorage(_root(self))


@declare("is_signed", rules=[], returns_tensor=False)
def is_signed(self):
    return self.dtype.is_signed


@declare("is_complex", rules=[], returns_tensor=False)
def is_complex(self):
    return self._a.dtype.kind == "c"


@declare("nbytes", function=False, rules=[], returns_tensor=False, attribute=True)
def nbytes(self):
    return int(self._a.nbytes)


@declare("volatile", function=False, rules=[], returns_tensor=False, attribute=True)
def volatile(self):
    """Variable.volatile of PyTorch < 0.4: always False now, with a warning."""
    warn("UserWarning", "volatile was removed (Variable.volatile is always False)")
    return False


@declare("itemsize", function=False, rules=[], returns_tensor=False, attribute=True)
def itemsize(self):
    return int(self._a.itemsize)


@declare("layout", function=False, rules=[], returns_tensor=False, attribute=True)
def layout(self):
    return LAYOUT


@declare("is_sparse", function=False, rules=[], returns_tensor=False, attribute=True)
def is_sparse(self):
    return False


@declare("is_quantized", function=False, rules=[], returns_tensor=False, attribute=True)
def is_quantized(self):
    return False


class Layout:
    __slots__ = ()

    def __repr__(self):
        return "torch.strided"


LAYOUT = Layout()


class MemoryFormat:
    """torch.contiguous_format & co.: gradrepl's tensors are always laid out row-major."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


MEMORY_FORMATS = {n: MemoryFormat(n) for n in ("contiguous_format", "preserve_format", "channels_last",
                                               "channels_last_3d")}


# ================================================================ post-accumulate-grad hooks
@declare("register_post_accumulate_grad_hook", function=False, rules=[], returns_tensor=False)
def register_post_accumulate_grad_hook(self, hook):
    if self._fn is not None or not self._rg:
        if self._fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    return A.RemovableHandle(A.post_accumulate_hooks(self), hook)


@declare("is_inference", function=False, rules=[], returns_tensor=False)
def is_inference_(self):
    return is_inference(self)


@declare("is_cpu", function=False, rules=[], returns_tensor=False, attribute=True)
def is_cpu(self):
    return True


@declare("is_neg", rules=[], returns_tensor=False)
def is_neg(self):
    return False


@declare("is_same_size", rules=[], returns_tensor=False)
def is_same_size(self, other):
    return self._a.shape == other._a.shape


@declare("is_nonzero", rules=[], returns_tensor=False)
def is_nonzero(self):
    if self._a.size != 1:
        if self._a.size == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(self._a.reshape(()))


# real tensors carry no negative or conjugate bit: resolving either is the tensor itself
declare("resolve_neg", lambda self: self, rules=[])
declare("resolve_conj", lambda self: self, rules=[])


# --- apply_ / map_ / map2_: a Python callable per element (torch/csrc/utils/tensor_apply.cpp) ---

def _checked_int(value, dtype):
    """c10::checked_convert to an integer dtype: unsigned types take negative ints down to
    -max (two's complement wrap, as `a - b` on uint8), never a negative float; NaN, inf and
    out-of-range values raise."""
    info = np.iinfo(dtype.np)
    if type(value) is float:
        if value != value or value < info.min or value > info.max:
            raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
        return int(value)
    if value > info.max or (value < info.min and not (info.min == 0 and -value <= info.max)):
        raise RuntimeError(f"value cannot be converted to type {dtype.name} without overflow")
    return value % (info.max + 1) if info.min == 0 else value


def _unpack_long(obj):
    value = operator.index(obj)     # "'str' object cannot be interpreted as an integer"
    if not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return value


def _unpack_double(obj):
    if isinstance(obj, float):
        return float(obj)
    if isinstance(obj, int):
        return float(obj)           # OverflowError: int too large to convert to float
    if isinstance(obj, Tensor):
        return float(obj)
    raise TypeError(f"must be real number, not {type(obj).__name__}")


def _store(obj, dtype):
    """store_scalar: the callable's result converted as PyTorch's binding converts it."""
    if dtype.name == "bool":
        if isinstance(obj, float):
            return bool(obj)
        return bool(operator.index(obj))
    if dtype.is_floating_point:
        d = _unpack_double(obj)
        if dtype.name == "float64":
            return d
        with np.errstate(over="ignore"):
            f = np.float32(d)        # (float)double; Half and BFloat16 are built from that float
            return f if dtype.name == "float32" else f.astype(dtype.np)
    if isinstance(obj, float):
        return _checked_int(float(obj), dtype)
    return _checked_int(_unpack_long(obj), dtype)


def _load(a, dtype):
    kind = bool if dtype.name == "bool" else float if dtype.is_floating_point else int
    return lambda idx: kind(a[idx])


def _run_per_element(name, self, others, fn):
    dtype = self.dtype
    target = self._a
    loads = [_load(a, dtype) for a in [target] + [o._a for o in others]]
    for idx in np.ndindex(target.shape):
        target[idx] = _store(fn(*[load(idx) for load in loads]), dtype)
    return self


def _tensor_args(name, args, names):
    for pos, (arg, argname) in enumerate(zip(args, names), 1):
        if not isinstance(arg, Tensor):
            raise TypeError(f"{name}(): argument '{argname}' (position {pos}) must be Tensor, not "
                            f"{type(arg).__name__}")


@declare("apply_", function=False, rules=[], returns_tensor=False)
def apply_(self, *args, **kwargs):
    if kwargs:
        raise TypeError("TensorBase.apply_() takes no keyword arguments")
    if len(args) != 1:
        raise TypeError(f"TensorBase.apply_() takes exactly one argument ({len(args)} given)")
    if self.requires_grad:
        raise RuntimeError("Can't call apply_() on Variable that requires grad. Use var.detach().apply_() instead.")
    return _run_per_element("apply_", self, [], args[0])


def _map(name, self, tensors, fn, names):
    _tensor_args(name, tensors, names)
    if fn is None:
        raise TypeError(f'{name}() missing 1 required positional arguments: "callable"')
    if self.requires_grad or any(t.requires_grad for t in tensors):
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")
    for t, argname in zip(tensors, names):
        if t.dtype is not self.dtype:
            what = f"'{argname}'" if name == "map_" else f"argument '{argname}'"
            raise TypeError(f"{name}: expected torch.{self.dtype.legacy} for {what} (got torch.{t.dtype.legacy})")
    expanded = [t.expand(*self._a.shape) for t in tensors]
    return _run_per_element(name, self, expanded, fn)


@declare("map_", function=False, rules=[], returns_tensor=False)
def map_(self, other, callable=None):
    return _map("map_", self, [other], callable, ["other"])


@declare("map2_", function=False, rules=[], returns_tensor=False)
def map2_(self, x, y, callable=None):
    return _map("map2_", self, [x, y], callable, ["x", "y"])
