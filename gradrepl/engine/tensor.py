"""Tensor: a NumPy array plus PyTorch's autograd state, with PyTorch's semantics.

This file holds the state (array, requires_grad, grad_fn, grad, version counter, view
base), metadata and Python's protocols. Every op (arithmetic and its dunders, math,
reductions, shape, indexing) is declared once in gradrepl/engine/ops and installed onto
the class from there.

User code never sees the array: `_a` is private (the language refuses `_` names), and
every public method returns Tensors or Python values.
"""
import weakref

import numpy as np

from gradrepl.engine.devices import (CPU, META, META_DEVICE, MODE, NO_DATA, NO_ITEM, NO_NUMPY, Device,  # noqa: F401
                                     is_meta, mark_meta, meta_repr)  # (Device: api's type tables)
from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import SAVE_CHECK, STALE_VIEW_MSG, RemovableHandle, note_detached, stale_no_grad_view
from gradrepl.engine.ndarray import NumpyArray
from gradrepl.engine.printing import _add_suffixes, tensor_repr
from gradrepl.engine.util import cname, prod, legacy_scalar, pytype, shape_list, warn, wrap_dim
from gradrepl.errors import BudgetExceeded
from gradrepl.limits import LIMITS, check_memory, check_numel

_BIG = 1 << 24  # arrays larger than this count against the live-memory budget

# PyTorch computes nan/inf silently; NumPy would warn on stderr.
np.seterr(all="ignore")

# Tensors that are torch.nn.Parameters (gradrepl.nn marks them; a Parameter stays a plain
# Tensor so every op's `type(x) is Tensor` fast path holds): id -> tensor.
PARAMETERS = weakref.WeakValueDictionary()
UNINITIALIZED = weakref.WeakValueDictionary()   # a LazyLinear's parameters before its first input



# Forward AD (torch.autograd.forward_ad): the tangents of the dual tensors of the current
# dual level, by id(tensor) -> (weakref to the tensor, tangent); emptied when the level exits.
TANGENTS = {}


def tangent_of(t):
    """t's forward-AD tangent at the current dual level, or None."""
    entry = TANGENTS.get(id(t))
    if entry is not None and entry[0]() is t:
        return entry[1]
    return None


_SCALAR_WARNED = [False]   # float(t) of a tensor that requires grad has warned


def _real_value(t, ctype):
    """float()/int() of a complex one-element tensor: its real part when the imaginary part is 0."""
    v = complex(t._a.reshape(()).item())
    if v.imag != 0:
        raise RuntimeError(f"value cannot be converted to type {ctype} without overflow")
    return v.real


class Tensor:
    __slots__ = ("_a", "_rg", "_fn", "_onr", "_grad", "_ver", "_acc", "_hooks", "_retains", "_base",
                 "_vidx", "__weakref__")

    def __init__(self, *args, **kwargs):
        raise TypeError("Tensor objects are made by torch.tensor(...) and the other creation functions")

    # ------------------------------------------------------------ autograd state
    @property
    def requires_grad(self):
        return self._fn is not None or self._rg

    @requires_grad.setter
    def requires_grad(self, value):
        value = bool(value)
        if self._fn is not None:
            if not value:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
            return
        if value and not self.dtype.is_floating_point and not self.dtype.is_complex:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        if value and _INFERENCE and not INFERENCE_MODE[0] and is_inference(self):
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        self._rg = value

    def requires_grad_(self, requires_grad=True):
        if self._fn is not None:
            if not requires_grad:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")
            return self
        if type(requires_grad) is not bool:
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be bool, not "
                            f"{pytype(requires_grad)}")
        if requires_grad and not self.dtype.is_floating_point and not self.dtype.is_complex:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and _INFERENCE and not INFERENCE_MODE[0] and is_inference(self):
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.")
        self._rg = bool(requires_grad)
        return self

    @property
    def is_leaf(self):
        if self._fn is None and self._base is not None and stale_no_grad_view(self):
            raise RuntimeError(STALE_VIEW_MSG)
        return self._fn is None

    @property
    def grad_fn(self):
        if self._fn is None and self._base is not None and stale_no_grad_view(self):
            raise RuntimeError(STALE_VIEW_MSG)
        return self._fn

    @property
    def grad(self):
        if self._fn is not None and not self._retains:
            warn("UserWarning",
                 "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
                 "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
                 "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf "
                 "Tensor by mistake, make sure you access the leaf Tensor instead. See "
                 "github.com/pytorch/pytorch/pull/30531 for more information.")
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is None:
            self._grad = None
            return
        if type(value) is not Tensor:
            raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {pytype(value)}")
        if value._a.shape != self._a.shape:
            raise RuntimeError(
                f"attempting to assign a gradient of size '{shape_list(value._a.shape)}' to a tensor of size "
                f"'{shape_list(self._a.shape)}'. Please ensure that the gradient and the tensor are the same size")
        if value._a.dtype != self._a.dtype:
            raise RuntimeError(
                f"attempting to assign a gradient with dtype '{cname(value.dtype)}' to a tensor with grad_dtype "
                f"'{legacy_scalar(self.dtype)}'. The gradient must match the tensor's grad_dtype (defaults to the "
                "tensor's dtype). You can set the tensor's grad_dtype attribute with a specific dtype, or None to "
                "allow any dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its gradient "
                "may break downstream systems that assume they match.")
        self._grad = value

    @property
    def retains_grad(self):
        return self._retains

    def retain_grad(self):
        if self._fn is None:
            if not self._rg:
                raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
            return None
        if self._retains:
            return None
        node = self._fn
        if node.retains is None:
            node.retains = {}
        node.retains[self._onr] = weakref.ref(self)
        self._retains = True
        return None

    def register_hook(self, hook):
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self._fn is None:
            if self._hooks is None:
                self._hooks = []
            return RemovableHandle(self._hooks, hook)
        node = self._fn
        if node.tensor_hooks is None:
            node.tensor_hooks = {}
        return RemovableHandle(node.tensor_hooks.setdefault(self._onr, []), hook)

    def detach(self):
        t = _new(self._a)
        t._ver = self._ver
        return t

    def detach_(self):
        if self._base is not None:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        if self._fn is not None:
            note_detached(self)
        self._fn = None
        self._onr = 0
        self._rg = False
        self._retains = False
        return self

    @property
    def data(self):
        return _new(self._a)

    @data.setter
    def data(self, value):
        if type(value) is not Tensor:
            raise TypeError(f"Variable data has to be a tensor, but got {pytype(value)}")
        if self.requires_grad and not value.dtype.is_floating_point:
            raise RuntimeError("data set to a tensor that requires gradients must be floating point or complex dtype")
        self._a = value._a

    # ------------------------------------------------------------ metadata
    @property
    def dtype(self):
        return D._BY_NP[self._a.dtype]

    @property
    def shape(self):
        return Size(self._a.shape)

    def size(self, dim=None):
        if dim is None:
            return Size(self._a.shape)
        if not self._a.ndim:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return self._a.shape[wrap_dim(dim, self._a.ndim)]

    def dim(self):
        return self._a.ndim

    ndimension = dim

    @property
    def ndim(self):
        return self._a.ndim

    def numel(self):
        return int(self._a.size)

    nelement = numel

    @property
    def device(self):
        if META and is_meta(self):
            return META_DEVICE
        return CPU

    @property
    def is_meta(self):
        return bool(META) and is_meta(self)

    @property
    def is_cuda(self):
        return False

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_contiguous(self):
        return bool(self._a.flags.c_contiguous)

    def element_size(self):
        return self._a.itemsize

    def item(self):
        if self._a.size != 1:
            raise RuntimeError(f"a Tensor with {self._a.size} elements cannot be converted to Scalar")
        if META and is_meta(self):
            raise RuntimeError(NO_ITEM)
        return self._a.reshape(()).item()

    def tolist(self):
        if META and is_meta(self):
            raise NotImplementedError(NO_DATA)
        if self._a.size > LIMITS.max_items:
            raise BudgetExceeded("items", f"tolist() of {self._a.size} elements is over the limit of "
                                 f"{LIMITS.max_items} items (raise it with --max-items)", "--max-items")
        return self._a.tolist()

    def numpy(self, force=False):
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if META and is_meta(self):
            raise TypeError(NO_NUMPY)
        return NumpyArray(self)

    def __repr__(self):
        fn = self._fn
        if META and is_meta(self):
            parts = meta_repr(self, self._rg and fn is None, None if fn is None else fn.spec.name)
            text = _add_suffixes("tensor(" + parts[0], parts[1:], len("tensor("))
            if PARAMETERS and PARAMETERS.get(id(self)) is self:
                return "Parameter containing:\n" + text
            return text
        tangent = tangent_of(self) if TANGENTS else None
        text = tensor_repr(self._a, requires_grad=self._rg and fn is None,
                           grad_fn_name=fn.spec.name if fn is not None else
                           "Invalid" if self._base is not None and stale_no_grad_view(self) else None,
                           tangent=None if tangent is None else repr(tangent._a.item()) if tangent._a.ndim == 0
                           else repr(tangent))
        if PARAMETERS and PARAMETERS.get(id(self)) is self:
            if UNINITIALIZED and UNINITIALIZED.get(id(self)) is self:
                return "<UninitializedParameter>"
            return "Parameter containing:\n" + text
        if UNINITIALIZED and UNINITIALIZED.get(id(self)) is self:
            return "<UninitializedBuffer>"          # a lazy batch norm's running statistics
        return text

    __str__ = __repr__

    def __format__(self, spec):
        if self._a.ndim == 0 and META and is_meta(self):
            raise RuntimeError(NO_ITEM)
        if self._a.ndim == 0:
            return format(self._a.item(), spec)
        if spec:   # object.__format__, as PyTorch falls back to for a tensor with dimensions
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def __len__(self):
        if self._a.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._a.shape[0]

    def __iter__(self):
        if self._a.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __bool__(self):
        if META and is_meta(self) and self._a.size == 1:
            raise RuntimeError(NO_ITEM)
        if self._a.size != 1:
            raise RuntimeError(f"Boolean value of Tensor with {'no values' if not self._a.size else 'more than one value'} "
                               "is ambiguous")
        return bool(self._a.reshape(()).item())

    def __float__(self):
        if META and is_meta(self) and self._a.size == 1:
            raise RuntimeError(NO_ITEM)
        if self._a.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if not _SCALAR_WARNED[0] and self.requires_grad:   # PyTorch's TORCH_WARN_ONCE: once a process
            _SCALAR_WARNED[0] = True
            warn("UserWarning", "Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                 "behavior.\nConsider using tensor.detach() first.")
        if self._a.dtype.kind == "c":
            return _real_value(self, "double")
        return float(self._a.reshape(()).item())

    def __int__(self):
        if META and is_meta(self) and self._a.size == 1:
            raise RuntimeError(NO_ITEM)
        if self._a.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if self._a.dtype.kind == "c":
            return int(_real_value(self, "int64_t"))
        return int(self._a.reshape(()).item())

    def __complex__(self):
        if self._a.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return complex(self._a.reshape(()).item())

    def __index__(self):
        if META and is_meta(self) and self._a.size == 1:
            raise RuntimeError(NO_ITEM)
        if self._a.size != 1 or self.dtype.is_floating_point:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._a.reshape(()).item())

    __hash__ = object.__hash__

    def __contains__(self, item):
        if type(item) is Tensor:
            broadcast_numel(self._a.shape, item._a.shape)    # before comparing
            v = item._a
        elif type(item) in (int, float, bool, complex):
            v = item
        else:
            raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you "
                               f"passed in a <class '{type(item).__name__}'>.")
        return bool((self._a == v).any())


def broadcast_numel(sa, sb):
    """Refuse a comparison whose broadcast result would be over the element budget."""
    n = 1
    for i in range(1, max(len(sa), len(sb)) + 1):
        n *= max(sa[-i] if i <= len(sa) else 1, sb[-i] if i <= len(sb) else 1)
    check_numel(n)


class TypedStorage:
    """What `tensor.storage()` gives (deprecated in PyTorch 2): the flat values of the tensor a
    view was taken from (an expanded or sliced view shares its base's storage)."""

    __slots__ = ("root",)

    def __init__(self, root):
        self.root = root

    @property
    def dtype(self):
        return self.root.dtype

    @property
    def device(self):
        return self.root.device

    def size(self):
        return int(self.root._a.size)

    def __len__(self):
        return self.size()

    def data_ptr(self):
        return self.root._a.__array_interface__["data"][0]

    def element_size(self):
        return int(self.root._a.itemsize)

    def nbytes(self):
        return int(self.root._a.nbytes)

    def tolist(self):
        return self.root.reshape(-1).tolist()

    def __getitem__(self, i):
        if type(i) is not int:
            raise RuntimeError(f"can't index a TypedStorage with {type(i).__name__}")
        n = self.size()
        if not -n <= i < n:
            raise IndexError(f"index {i} out of range for storage of size {n}")
        return self.tolist()[i]

    def type(self):
        return "torch." + self.root.dtype.legacy.replace("Tensor", "Storage")

    def is_shared(self):
        return False

    def __repr__(self):
        info = f"[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size {self.size()}]"
        return " " + "\n ".join(str(v) for v in self.tolist()) + "\n" + info

    __str__ = __repr__


class Size(tuple):
    """torch.Size: a tuple that prints as `torch.Size([2, 3])`."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size([{', '.join(str(int(s)) for s in self)}])"

    __str__ = __repr__

    def numel(self):
        return prod(self)

    def __getitem__(self, i):
        r = tuple.__getitem__(self, i)
        return Size(r) if isinstance(i, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):     # PyTorch's message; a range is never expanded
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return Size(tuple.__add__(self, other))


# ================================================================ construction helpers
# ================================================================ inference tensors
INFERENCE_MODE = [False]   # inside torch.inference_mode()
_INFERENCE = {}            # id(tensor) -> weakref: the tensors made in inference mode
INFERENCE_SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
                   "mode in computation tracked by autograd. To work around this, you can make a clone to get a normal "
                   "tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.")


def _mark_inference(t):
    key = id(t)
    _INFERENCE[key] = weakref.ref(t, lambda _r, k=key: _INFERENCE.pop(k, None))
    SAVE_CHECK[0] = _check_saved_inference


def is_inference(t):
    ref = _INFERENCE.get(id(t))
    return ref is not None and ref() is t


def _check_saved_inference(saved):
    if not INFERENCE_MODE[0]:
        for v in saved:
            if type(v) is Tensor and is_inference(v):
                raise RuntimeError(INFERENCE_SAVED)


def _new(arr):
    if arr.nbytes > _BIG and any(arr.strides):     # zero strides: a meta tensor's no data, an expand
        check_memory(arr.nbytes)
    t = Tensor.__new__(Tensor)
    t._a = arr
    t._rg = False
    t._fn = None
    t._onr = 0
    t._grad = None
    t._ver = [0]
    t._acc = None
    t._hooks = None
    t._retains = False
    t._base = None
    t._vidx = None
    if INFERENCE_MODE[0]:
        _mark_inference(t)
    if MODE[0]:
        mark_meta(t)
    return t


def wrap(arr):
    """A Tensor (no grad) around a NumPy array or scalar result."""
    if type(arr) is not np.ndarray:
        arr = np.asarray(arr)
    return _new(arr)

