"""Tensor: a NumPy array plus PyTorch's autograd state, with PyTorch's semantics.

User code never sees the array: `_a` is private (the language refuses `_` names), and
every public method returns Tensors or Python values.
"""
import weakref

import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import GRAD, Node, RemovableHandle, SavedOutput, edge_of, make_node, run_backward
from gradrepl.engine.derivatives import SPECS
from gradrepl.engine.summation import full_sum
from gradrepl.limits import LIMITS, check_memory, check_numel

_BIG = 1 << 24  # arrays larger than this count against the live-memory budget

# PyTorch computes nan/inf silently; NumPy would warn on stderr.
np.seterr(all="ignore")

_WARN = [None]  # warning sink: callable(category, message), set by api.set_warning_sink


def warn(category, message):
    sink = _WARN[0]
    if sink is not None:
        sink(category, message)


class Tensor:
    __slots__ = ("_a", "_rg", "_fn", "_onr", "_grad", "_ver", "_acc", "_hooks", "_retains", "_base",
                 "_vidx", "__weakref__")

    # ------------------------------------------------------------ construction
    def __init__(self, *args, **kwargs):
        # torch.Tensor(...) legacy constructor is routed through functions.legacy_tensor
        from gradrepl.engine.functions import legacy_tensor
        t = legacy_tensor(*args, **kwargs)
        self._a = t._a
        self._rg = False
        self._fn = None
        self._onr = 0
        self._grad = None
        self._ver = [0]
        self._acc = None
        self._hooks = None
        self._retains = False
        self._base = None
        self._vidx = None

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
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
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
                            f"{_pytype(requires_grad)}")
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self._rg = bool(requires_grad)
        return self

    @property
    def is_leaf(self):
        return self._fn is None

    @property
    def grad_fn(self):
        return self._fn

    @property
    def grad(self):
        if self._fn is not None and not self._retains:
            warn("UserWarning",
                 "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute "
                 "won't be populated during autograd.backward(). If you indeed want the .grad field to be populated "
                 "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf "
                 "Tensor by mistake, make sure you access the leaf Tensor instead.")
        return self._grad

    @grad.setter
    def grad(self, value):
        if value is None:
            self._grad = None
            return
        if type(value) is not Tensor:
            raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type {_pytype(value)}")
        if value._a.shape != self._a.shape:
            raise RuntimeError(
                f"attempting to assign a gradient of size '{_shape_list(value._a.shape)}' to a tensor of size "
                f"'{_shape_list(self._a.shape)}'. Please ensure that the gradient and the tensor are the same size")
        if value._a.dtype != self._a.dtype:
            raise RuntimeError(
                f"attempting to assign a gradient with dtype '{_cname(value.dtype)}' to a tensor with grad_dtype "
                f"'{_legacy_scalar(self.dtype)}'. The gradient must match the tensor's grad_dtype (defaults to the "
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

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

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
            raise TypeError(f"Variable data has to be a tensor, but got {_pytype(value)}")
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
        return self._a.shape[_dim(dim, self._a.ndim)]

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
        return Device()

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
        return self._a.reshape(()).item()

    def tolist(self):
        if self._a.size > LIMITS.max_items:
            from gradrepl.errors import BudgetExceeded
            raise BudgetExceeded("items", f"tolist() of {self._a.size} elements is over the limit of "
                                 f"{LIMITS.max_items} items (raise it with --max-items)", "--max-items")
        return self._a.tolist()

    def numpy(self, force=False):
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        raise RuntimeError("Tensor.numpy() is not available in gradrepl: use .tolist() for the values")

    def __repr__(self):
        from gradrepl.engine.printing import tensor_repr
        fn = self._fn
        return tensor_repr(self._a, requires_grad=self._rg and fn is None,
                           grad_fn_name=None if fn is None else fn.spec.name)

    __str__ = __repr__

    def __format__(self, spec):
        if self._a.ndim == 0:
            return format(self._a.item(), spec)
        return format(repr(self), spec)

    def __len__(self):
        if self._a.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._a.shape[0]

    def __iter__(self):
        if self._a.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __bool__(self):
        if self._a.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._a.reshape(()).item())

    def __float__(self):
        if self._a.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return float(self._a.reshape(()).item())

    def __int__(self):
        if self._a.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(self._a.reshape(()).item())

    def __index__(self):
        if self._a.size != 1 or self.dtype.is_floating_point:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._a.reshape(()).item())

    __hash__ = object.__hash__

    def __contains__(self, item):
        v = item._a if type(item) is Tensor else item
        return bool((self._a == v).any())

    # ------------------------------------------------------------ arithmetic
    def __add__(self, other):
        try:
            return add(self, other)
        except _Unsupported:
            return NotImplemented

    def __radd__(self, other):
        try:
            return add(self, other)
        except _Unsupported:
            return NotImplemented

    def __sub__(self, other):
        try:
            return sub(self, other)
        except _Unsupported:
            return NotImplemented

    def __rsub__(self, other):
        try:
            return rsub(self, other)
        except _Unsupported:
            return NotImplemented

    def __mul__(self, other):
        try:
            return mul(self, other)
        except _Unsupported:
            return NotImplemented

    def __rmul__(self, other):
        try:
            return mul(self, other)
        except _Unsupported:
            return NotImplemented

    def __truediv__(self, other):
        try:
            return div(self, other)
        except _Unsupported:
            return NotImplemented

    def __rtruediv__(self, other):
        try:
            return mul(self.reciprocal(), other)
        except _Unsupported:
            return NotImplemented

    def __floordiv__(self, other):
        return floor_divide(self, other)

    def __rfloordiv__(self, other):
        return floor_divide(_scalar_tensor(other, self), self)

    def __mod__(self, other):
        try:
            return remainder(self, other)
        except _Unsupported:
            return NotImplemented

    def __pow__(self, other):
        try:
            return pow(self, other)
        except _Unsupported:
            return NotImplemented

    def __rpow__(self, other):
        try:
            return rpow(self, other)
        except _Unsupported:
            return NotImplemented

    def __matmul__(self, other):
        if type(other) is not Tensor:
            return NotImplemented
        return matmul(self, other)

    def __rmatmul__(self, other):
        return NotImplemented

    def __neg__(self):
        return neg(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return self.abs()

    def __invert__(self):
        if self.dtype is D.bool_:
            return _new(~self._a)
        return _new(np.invert(self._a))

    def __and__(self, other):
        return _nograd_binary(self, other, np.bitwise_and, "bitwise_and")

    def __or__(self, other):
        return _nograd_binary(self, other, np.bitwise_or, "bitwise_or")

    def __xor__(self, other):
        return _nograd_binary(self, other, np.bitwise_xor, "bitwise_xor")

    __rand__ = __and__
    __ror__ = __or__

    def __eq__(self, other):
        return _compare(self, other, np.equal)

    def __ne__(self, other):
        return _compare(self, other, np.not_equal)

    def __lt__(self, other):
        return _compare(self, other, np.less)

    def __le__(self, other):
        return _compare(self, other, np.less_equal)

    def __gt__(self, other):
        return _compare(self, other, np.greater)

    def __ge__(self, other):
        return _compare(self, other, np.greater_equal)

    def eq(self, other):
        return _compare(self, other, np.equal)

    def ne(self, other):
        return _compare(self, other, np.not_equal)

    def lt(self, other):
        return _compare(self, other, np.less)

    def le(self, other):
        return _compare(self, other, np.less_equal)

    def gt(self, other):
        return _compare(self, other, np.greater)

    def ge(self, other):
        return _compare(self, other, np.greater_equal)

    def equal(self, other):
        return self._a.shape == other._a.shape and bool((self._a == other._a).all())

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return bool(np.allclose(self._a, _as_tensor(other)._a, rtol=rtol, atol=atol, equal_nan=equal_nan))

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return _new(np.isclose(self._a, _as_tensor(other)._a, rtol=rtol, atol=atol, equal_nan=equal_nan))

    # in-place arithmetic
    def __iadd__(self, other):
        return self.add_(other)

    def __isub__(self, other):
        return self.sub_(other)

    def __imul__(self, other):
        return self.mul_(other)

    def __itruediv__(self, other):
        return self.div_(other)

    def add(self, other, alpha=1):
        return add(self, other, alpha=alpha)

    def sub(self, other, alpha=1):
        return sub(self, other, alpha=alpha)

    def mul(self, other):
        return mul(self, other)

    def div(self, other):
        return div(self, other)

    multiply = mul
    divide = div
    subtract = sub

    def pow(self, exponent):
        return pow(self, exponent)

    def matmul(self, other):
        return matmul(self, other)

    def mm(self, other):
        return mm(self, other)

    def mv(self, other):
        return mv(self, other)

    def dot(self, other):
        return dot(self, other)

    def add_(self, other, alpha=1):
        return _inplace(self, other, add, alpha=alpha)

    def sub_(self, other, alpha=1):
        return _inplace(self, other, sub, alpha=alpha)

    def mul_(self, other):
        return _inplace(self, other, mul)

    def div_(self, other):
        return _inplace(self, other, div)

    def pow_(self, other):
        return _inplace(self, other, pow)

    def clamp_(self, min=None, max=None):
        return _inplace(self, None, lambda s, _o: s.clamp(min, max))

    def relu_(self):
        return _inplace(self, None, lambda s, _o: s.relu())

    def exp_(self):
        return _inplace(self, None, lambda s, _o: s.exp())

    def neg_(self):
        return _inplace(self, None, lambda s, _o: neg(s))

    def zero_(self):
        return _fill_inplace(self, 0, "ZeroBackward0")

    def fill_(self, value):
        if type(value) is Tensor:  # fill_(Tensor): FillBackward3, the value gets grad.sum()
            if value._a.ndim:
                raise RuntimeError("fill_ only supports 0-dimension value tensor but got tensor with "
                                   f"{value._a.ndim} dimensions.")
            setitem(self, Ellipsis, value)
            return self
        return _fill_inplace(self, value, "FillBackward2")

    def copy_(self, src):
        src = _as_tensor(src)
        _check_leaf_inplace(self)
        _broadcast_shape(src._a.shape, self._a.shape, out=self._a.shape)
        self._a[...] = src._a
        self._ver[0] += 1
        if GRAD[0] and (self.requires_grad or src.requires_grad):
            node = make_node(SPECS["CopyBackwards"], (self, src), (), src._a.shape)
            if node is not None:
                self._fn, self._onr = node, 0
        return self

    # ------------------------------------------------------------ elementwise functions
    def neg(self):
        return neg(self)

    negative = neg

    def abs(self):
        if self._a.dtype.kind == "b":
            raise NotImplementedError('"abs_cpu" not implemented for \'Bool\'')
        return _unary(self, np.abs, "AbsBackward0", "self", float_only=False)

    def exp(self):
        return _unary(self, _f64(np.exp), "ExpBackward0", "result")

    def expm1(self):
        return _unary(self, _f64(np.expm1), "Expm1Backward0", "result")

    def log(self):
        return _unary(self, _f64(np.log), "LogBackward0", "self")

    def log2(self):
        return _unary(self, _f64(np.log2), "Log2Backward0", "self")

    def log10(self):
        return _unary(self, _f64(np.log10), "Log10Backward0", "self")

    def log1p(self):
        return _unary(self, _f64(np.log1p), "Log1PBackward0", "self")

    def sqrt(self):
        return _unary(self, np.sqrt, "SqrtBackward0", "result")

    def rsqrt(self):
        return _unary(self, lambda a: 1 / np.sqrt(a), "RsqrtBackward0", "result")

    def reciprocal(self):
        return _unary(self, np.reciprocal, "ReciprocalBackward0", "result")

    def sin(self):
        return _unary(self, _f64(np.sin), "SinBackward0", "self")

    def cos(self):
        return _unary(self, _f64(np.cos), "CosBackward0", "self")

    def tan(self):
        return _unary(self, _f64(np.tan), "TanBackward0", "result")

    def sinh(self):
        return _unary(self, _f64(np.sinh), "SinhBackward0", "self")

    def cosh(self):
        return _unary(self, _f64(np.cosh), "CoshBackward0", "self")

    def asin(self):
        return _unary(self, _f64(np.arcsin), "AsinBackward0", "self")

    def acos(self):
        return _unary(self, _f64(np.arccos), "AcosBackward0", "self")

    def atan(self):
        return _unary(self, _f64(np.arctan), "AtanBackward0", "self")

    def tanh(self):
        return _unary(self, _f64(np.tanh), "TanhBackward0", "result")

    def sigmoid(self):
        return _unary(self, _sigmoid, "SigmoidBackward0", "result")

    def relu(self):
        if self._a.dtype.kind == "b":
            raise RuntimeError("Boolean inputs not supported for relu")
        return _unary(self, lambda a: np.maximum(a, a.dtype.type(0)), "ReluBackward0", "result", float_only=False)

    def sign(self):
        return _unary(self, lambda a: a.copy() if a.dtype.kind == "b" else np.sign(a), "SignBackward0", None,
                      float_only=False)

    def square(self):
        return pow(self, 2)

    def floor(self):
        return _unary(self, _rounding(np.floor, "floor"), "FloorBackward0", None, float_only=False)

    def ceil(self):
        return _unary(self, _rounding(np.ceil, "ceil"), "CeilBackward0", None, float_only=False)

    def round(self, decimals=0):
        if decimals:
            return _unary(self, lambda a: np.round(a, decimals), "RoundBackward1", None)
        return _unary(self, _rounding(np.round, "round"), "RoundBackward0", None, float_only=False)

    def clamp(self, min=None, max=None):
        return clamp(self, min, max)

    clip = clamp

    def clamp_min(self, min):
        return clamp(self, min, None)

    def clamp_max(self, max):
        return clamp(self, None, max)

    def masked_fill(self, mask, value):
        m = _as_tensor(mask)._a.astype(bool)
        v = value.item() if type(value) is Tensor else value
        out = np.where(m, np.asarray(v, self._a.dtype), self._a)
        return _result(out, "MaskedFillBackward0", (self,), (), np.broadcast_to(m, out.shape))

    def isnan(self):
        return _new(np.isnan(self._a))

    def isinf(self):
        return _new(np.isinf(self._a))

    def isfinite(self):
        return _new(np.isfinite(self._a))

    def logical_not(self):
        return _new(np.logical_not(self._a))

    def all(self, dim=None, keepdim=False):
        return _new(np.asarray(np.all(self._a, axis=_dims_opt(dim, self._a.ndim), keepdims=keepdim)))

    def any(self, dim=None, keepdim=False):
        return _new(np.asarray(np.any(self._a, axis=_dims_opt(dim, self._a.ndim), keepdims=keepdim)))

    # ------------------------------------------------------------ reductions
    def sum(self, dim=None, keepdim=None, dtype=None):
        return reduce_sum(self, dim, _keepdim("sum", dim, keepdim), dtype)

    def mean(self, dim=None, keepdim=None, dtype=None):
        return reduce_mean(self, dim, _keepdim("mean", dim, keepdim), dtype)

    def prod(self, dim=None, keepdim=None, dtype=None):
        return reduce_prod(self, dim, _keepdim("prod", dim, keepdim))

    def max(self, dim=None, keepdim=None):
        if isinstance(dim, Tensor):
            return maximum(self, dim)
        return reduce_max(self, dim, _keepdim("max", dim, keepdim), "max")

    def min(self, dim=None, keepdim=None):
        if isinstance(dim, Tensor):
            return minimum(self, dim)
        return reduce_max(self, dim, _keepdim("min", dim, keepdim), "min")

    def amax(self, dim=(), keepdim=False):
        if type(keepdim) is not bool:
            raise TypeError(f"amax(): argument 'keepdim' must be bool, not {_pytype(keepdim)}")
        xa = self._a
        dims = tuple(range(xa.ndim)) if dim in ((), None) or dim == [] else _dims_tuple(dim, xa.ndim)
        if xa.size == 0:
            return reduce_max(self, None, keepdim, "max")  # PyTorch's message for an empty reduction
        out = np.asarray(np.max(xa, axis=dims, keepdims=keepdim))
        return _result(out, "AmaxBackward0", (self,), (self, _RESULT), (dims, keepdim))

    def argmax(self, dim=None, keepdim=False):
        return _arg(self, dim, keepdim, np.argmax)

    def argmin(self, dim=None, keepdim=False):
        return _arg(self, dim, keepdim, np.argmin)

    def norm(self, p="fro", dim=None, keepdim=False):
        return norm(self, p, dim, keepdim)

    def std(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return _var(self, dim, unbiased, keepdim, correction, std=True)

    def var(self, dim=None, unbiased=None, keepdim=False, correction=None):
        return _var(self, dim, unbiased, keepdim, correction, std=False)

    def softmax(self, dim=None, dtype=None):
        if dim is None:
            raise TypeError('softmax() missing 1 required positional arguments: "dim"')
        return softmax(self, dim)

    def log_softmax(self, dim=None, dtype=None):
        if dim is None:
            raise TypeError('log_softmax() missing 1 required positional arguments: "dim"')
        return log_softmax(self, dim)

    def cumsum(self, dim):
        d = _dim(dim, self._a.ndim)
        out = np.cumsum(self._a, axis=d, dtype=self._a.dtype if self.dtype.is_floating_point else np.int64)
        out += 0  # PyTorch's running sum starts at +0: a leading -0. becomes 0.
        out = out.reshape(self._a.shape)  # a 0-d tensor stays 0-d
        return _result(out, "CumsumBackward0", (self,), (), d)

    def logsumexp(self, dim, keepdim=False):
        if self._a.dtype.kind != "f":  # integer and bool inputs give a float result
            return self.float().logsumexp(dim, keepdim)
        prev = GRAD[0]
        GRAD[0] = False
        try:
            m = self.amax(dim, keepdim=True)
            r = (self - m).exp().sum(dim, keepdim=True).log() + m
            out = r if keepdim else r.squeeze(dim)
        finally:
            GRAD[0] = prev
        return _result(out._a, "LogsumexpBackward0", (self,), (self, _RESULT), (_dims_tuple(dim, self._a.ndim), keepdim))

    # ------------------------------------------------------------ shape
    def view(self, *shape):
        shape = _shape_args(shape)
        if len(shape) == 1 and isinstance(shape[0], D.DType):
            raise RuntimeError("view(dtype) is not supported in gradrepl")
        new = _infer_shape(shape, self._a.size)
        if not self._a.flags.c_contiguous and self._a.size > 1 and _needs_copy(self._a, new):
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                "across two contiguous subspaces). Use .reshape(...) instead.")
        return _view(self, self._a.reshape(new), "ViewBackward0", self._a.shape)

    def view_as(self, other):
        return self.view(*other._a.shape)

    def reshape(self, *shape):
        shape = _shape_args(shape)
        new = _infer_shape(shape, self._a.size)
        if not self._a.flags.c_contiguous and self._a.size > 1 and _needs_copy(self._a, new):
            return _result(np.ascontiguousarray(self._a).reshape(new), "ReshapeCopy", (self,), (), self._a.shape)
        return _view(self, self._a.reshape(new), "ViewBackward0", self._a.shape)

    def reshape_as(self, other):
        return self.reshape(*other._a.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        nd = self._a.ndim
        if nd == 0:
            return self.reshape(1)
        s, e = _dim(start_dim, nd), _dim(end_dim, nd)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        sh = self._a.shape
        return self.reshape(*sh[:s], -1, *sh[e + 1:])

    def squeeze(self, dim=None):
        sh = self._a.shape
        if dim is None:
            new = tuple(s for s in sh if s != 1)
            return _view(self, self._a.reshape(new), "SqueezeBackward0", sh)
        dims = dim if isinstance(dim, (tuple, list)) else (dim,)
        dd = {_dim(d, self._a.ndim) for d in dims}
        if not sh:
            dd = set()
        new = tuple(s for i, s in enumerate(sh) if not (i in dd and s == 1))
        name = "SqueezeBackward2" if isinstance(dim, (tuple, list)) else "SqueezeBackward1"
        return _view(self, self._a.reshape(new), name, sh)

    def unsqueeze(self, dim):
        d = _dim(dim, self._a.ndim + 1)
        return _view(self, np.expand_dims(self._a, d), "UnsqueezeBackward0", self._a.shape)

    def t(self):
        nd = self._a.ndim
        if nd > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
        return _view(self, self._a.T, "TBackward0", None)

    @property
    def T(self):
        nd = self._a.ndim
        return _view(self, np.transpose(self._a), "PermuteBackward0", tuple(range(nd))[::-1])

    @property
    def mT(self):
        if self._a.ndim == 0:
            return self
        if self._a.ndim < 2:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
        return self.transpose(-2, -1)

    def transpose(self, dim0, dim1):
        nd = self._a.ndim
        d0, d1 = _dim(dim0, nd), _dim(dim1, nd)
        return _view(self, np.swapaxes(self._a, d0, d1), "TransposeBackward0", (d0, d1))

    swapaxes = transpose

    def permute(self, *dims):
        dims = _shape_args(dims)
        nd = self._a.ndim
        if len(dims) != nd:
            raise RuntimeError(
                f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
                f"desired ordering of dimensions i.e. input.dim() = {nd} is not equal to len(dims) = {len(dims)}")
        dd = tuple(_dim(d, nd) for d in dims)
        if len(set(dd)) != nd:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return _view(self, np.transpose(self._a, dd), "PermuteBackward0", dd)

    def expand(self, *sizes):
        sizes = _shape_args(sizes)
        sh = self._a.shape
        if len(sizes) < len(sh):
            raise RuntimeError(
                f"expand(torch.FloatTensor{{{_shape_list(sh)}}}, size={_shape_list(sizes)}): the number of sizes "
                f"provided ({len(sizes)}) must be greater or equal to the number of dimensions in the tensor ({len(sh)})")
        lead = len(sizes) - len(sh)
        for i in range(len(sizes) - 1, lead - 1, -1):
            s, cur = sizes[i], sh[i - lead]
            if s != -1 and cur != 1 and cur != s:
                raise RuntimeError(
                    f"The expanded size of the tensor ({s}) must match the existing size ({cur}) at non-singleton "
                    f"dimension {i}.  Target sizes: {_shape_list(sizes)}.  Tensor sizes: {_shape_list(sh)}")
        target = []
        for i, s in enumerate(sizes):
            if i >= lead:
                cur = sh[i - lead]
                if s == -1:
                    s = cur
                elif cur != 1 and cur != s:
                    raise RuntimeError(
                        f"The expanded size of the tensor ({s}) must match the existing size ({cur}) at non-singleton "
                        f"dimension {i}.  Target sizes: {_shape_list(sizes)}.  Tensor sizes: {_shape_list(sh)}")
            elif s < 0:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a leading, non-existing dimension {i}")
            target.append(int(s))
        check_numel(_prod(target), target)
        # no element repeated (only size-1 dims added or kept): a plain, writable view
        arr = self._a.reshape(tuple(target)) if _prod(target) == self._a.size else np.broadcast_to(self._a, tuple(target))
        return _view(self, arr, "ExpandBackward0", sh)

    def expand_as(self, other):
        return self.expand(*other._a.shape)

    def repeat(self, *reps):
        reps = _shape_args(reps)
        sh = self._a.shape
        if len(reps) < len(sh):
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
        full = (1,) * (len(reps) - len(sh)) + sh
        check_numel(_prod(r * s for r, s in zip(reps, full)))
        out = np.tile(self._a.reshape(full), reps)
        return _result(out, "RepeatBackward0", (self,), (), (sh, tuple(reps)))

    def contiguous(self):
        if self._a.flags.c_contiguous:
            return self
        return _result(np.ascontiguousarray(self._a), "CloneBackward0", (self,), (), None)

    def clone(self):
        return _result(self._a.copy(), "CloneBackward0", (self,), (), None)

    def flip(self, *dims):
        dims = _shape_args(dims)
        dd = tuple(_dim(d, self._a.ndim) for d in dims)
        if not self._a.ndim:  # a 0-d tensor flips over dim 0 or -1 as over nothing
            dd = ()
        return _result(np.flip(self._a, dd).copy(), "FlipBackward0", (self,), (), dd)

    def split(self, split_size, dim=0):
        d = _dim(dim, self._a.ndim)
        n = self._a.shape[d]
        if isinstance(split_size, int):
            sizes = [split_size] * (n // split_size) + ([n % split_size] if n % split_size else [])
            name = "SplitBackward0"
        else:
            sizes = list(split_size)
            name = "SplitWithSizesBackward0"
        return _multi(self, np.split(self._a, np.cumsum(sizes)[:-1], axis=d), name, (self._a.shape, d, sizes))

    def chunk(self, chunks, dim=0):
        d = _dim(dim, self._a.ndim)
        n = self._a.shape[d]
        size = -(-n // chunks)
        return self.split(size, d)

    def unbind(self, dim=0):
        d = _dim(dim, self._a.ndim)
        parts = [np.take(self._a, i, axis=d) for i in range(self._a.shape[d])]
        return _multi(self, parts, "UnbindBackward0", (self._a.shape, d, None))

    def gather(self, dim, index):
        d = _dim(dim, self._a.ndim)
        idx = index._a
        out = np.take_along_axis(self._a, idx, axis=d)
        return _result(out, "GatherBackward0", (self,), (index,), (self._a.shape, d))

    def type(self, dtype=None):
        if dtype is None:
            return "torch." + self.dtype.legacy
        return self.to(dtype)

    # ------------------------------------------------------------ dtype conversion
    def to(self, *args, **kwargs):
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, D.DType):
                dtype = a
            elif type(a) is Tensor:
                dtype = a.dtype
        if dtype is None or dtype is self.dtype:
            return self
        return _to(self, dtype)

    def float(self):
        return _to(self, D.float32)

    def double(self):
        return _to(self, D.float64)

    def half(self):
        return _to(self, D.float16)

    def long(self):
        return _to(self, D.int64)

    def int(self):
        return _to(self, D.int32)

    def bool(self):
        return _to(self, D.bool_)

    def cpu(self):
        return self

    # ------------------------------------------------------------ indexing
    def __getitem__(self, index):
        return getitem(self, index)

    def __setitem__(self, index, value):
        setitem(self, index, value)

    def index_select(self, dim, index):
        d = _dim(dim, self._a.ndim)
        idx = (slice(None),) * d + (index._a,)
        return getitem_raw(self, idx)

    def narrow(self, dim, start, length):
        d = _dim(dim, self._a.ndim)
        return getitem_raw(self, (slice(None),) * d + (slice(start, start + length),))

    def select(self, dim, index):
        d = _dim(dim, self._a.ndim)
        return getitem(self, (slice(None),) * d + (index,))


class Size(tuple):
    """torch.Size: a tuple that prints as `torch.Size([2, 3])`."""

    __slots__ = ()

    def __repr__(self):
        return f"torch.Size([{', '.join(str(int(s)) for s in self)}])"

    __str__ = __repr__

    def numel(self):
        return _prod(self)

    def __getitem__(self, i):
        r = tuple.__getitem__(self, i)
        return Size(r) if isinstance(i, slice) else r

    def __add__(self, other):
        return Size(tuple(self) + tuple(other))


class Device:
    __slots__ = ()
    type = "cpu"
    index = None

    def __repr__(self):
        return "device(type='cpu')"

    def __str__(self):
        return "cpu"

    def __eq__(self, other):
        return isinstance(other, Device) or other == "cpu"

    __hash__ = object.__hash__


# ================================================================ construction helpers
def _new(arr):
    if arr.nbytes > _BIG:
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
    return t


def wrap(arr):
    """A Tensor (no grad) around a NumPy array or scalar result."""
    if type(arr) is not np.ndarray:
        arr = np.asarray(arr)
    return _new(arr)


def _result(out, spec_name, inputs, saved=(), ctx=None):
    """Wrap an op's output array and record the node when an input requires grad."""
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    t = _new(out)
    if GRAD[0]:
        for i in inputs:
            if i is not None and (i._fn is not None or i._rg):
                spec = SPECS[spec_name]
                outs = tuple(k for k, s in enumerate(saved) if s is _RESULT)
                node = t._fn = Node(spec, tuple(None if x is None else edge_of(x) for x in inputs),
                                    tuple(t if s is _RESULT else s for s in saved), ctx)
                if outs:
                    node.saved = tuple(SavedOutput(t, node) if s is _RESULT else s for s in saved)
                    node.saved_outputs = outs
                break
    return t


_RESULT = object()  # placeholder in `saved` for the op's own output


def _view(base, arr, spec_name, ctx):
    t = _result(arr, spec_name, (base,), (), ctx)
    t._ver = base._ver
    t._base = base
    _no_grad_view(t, base)
    return t


def _no_grad_view(view, base):
    """A view made under no_grad of a tensor that requires grad is a leaf that requires grad
    (PyTorch: tensor([1., 0.], requires_grad=True), grad_fn None)."""
    while base._base is not None:  # PyTorch's views all hang off the root base
        base = base._base
    if not GRAD[0] and base.requires_grad:
        view._rg = True


def _multi(self, parts, spec_name, ctx):
    outs = [_new(np.asarray(p)) for p in parts]
    if GRAD[0] and self.requires_grad:
        node = Node(SPECS[spec_name], (edge_of(self),), (), (ctx[0], ctx[1], [p.shape[ctx[1]] if p.ndim > ctx[1] else 1 for p in parts] if ctx[2] is not None else None))
        node.n_out = len(parts)
        for i, o in enumerate(outs):
            o._fn, o._onr = node, i
            o._ver = self._ver
            o._base = self
    for o in outs:
        _no_grad_view(o, self)
    return tuple(outs)


def _to(t, dtype):
    if dtype is t.dtype:
        return t
    out = t._a.astype(dtype.np)
    r = _result(out, "ToCopyBackward0", (t,) if dtype.is_floating_point else (), (), t.dtype)
    return r


def _scalar_tensor(value, like):
    dt = D.result_type((value,))
    return _new(np.asarray(value, dt.np))


def _as_tensor(x):
    if type(x) is Tensor:
        return x
    if isinstance(x, (bool, int, float)):
        return _new(np.asarray(x, D.result_type((x,)).np))
    from gradrepl.engine.functions import tensor
    return tensor(x)


def _pytype(v):
    if type(v) is Tensor:
        return "Tensor"
    return type(v).__name__


def _shape_list(shape):
    return "[" + ", ".join(str(int(s)) for s in shape) + "]"


_CNAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
           "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool"}


def _cname(dtype):
    return _CNAMES[dtype.name]


def _legacy_scalar(dtype):
    return dtype.legacy[:-len("Tensor")]


def _prod(xs):
    p = 1
    for x in xs:
        p *= int(x)
    return p


def _dim(d, ndim):
    if isinstance(d, Tensor):
        d = d.item()
    if not isinstance(d, int) or isinstance(d, bool):
        raise TypeError(f"dim must be an int, not {_pytype(d)}")
    n = max(ndim, 1)
    if d < -n or d >= n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    return d + n if d < 0 else d


def _dims_opt(dim, ndim):
    if dim is None:
        return None
    if isinstance(dim, (tuple, list)):
        return tuple(_dim(d, ndim) for d in dim)
    return _dim(dim, ndim)


def _shape_args(args):
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    out = []
    for a in args:
        if type(a) is Tensor:
            a = a.item()
        if not isinstance(a, int) or isinstance(a, bool):
            raise TypeError(f"expected a sequence of integers, but got an element of type {_pytype(a)}")
        out.append(a)
    return tuple(out)


def _infer_shape(shape, numel):
    shape = list(shape)
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = _prod(s for s in shape if s != -1)
    if neg:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{_shape_list(shape)}' is invalid for input of size {numel}")
        shape[neg[0]] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{_shape_list(shape)}' is invalid for input of size {numel}")
    for s in shape:
        if s < 0:
            raise RuntimeError(f"invalid shape dimension {s}")
    return tuple(shape)


def _needs_copy(arr, new_shape):
    try:
        v = arr.view()
        v.shape = new_shape
        return False
    except AttributeError:
        return True


def _broadcast_shape(sa, sb, out=None):
    """Broadcast two shapes, with PyTorch's message on mismatch; checks the element budget."""
    if sa == sb:
        return sa
    na, nb = len(sa), len(sb)
    n = max(na, nb)
    res = []
    for i in range(n - 1, -1, -1):
        a = sa[i - n + na] if i - n + na >= 0 else 1
        b = sb[i - n + nb] if i - n + nb >= 0 else 1
        if a == b or b == 1:
            res.append(a)
        elif a == 1:
            res.append(b)
        else:
            raise RuntimeError(
                f"The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {i}")
    res = tuple(reversed(res))
    if out is not None and res != tuple(out):
        raise RuntimeError(
            f"output with shape {_shape_list(out)} doesn't match the broadcast shape {_shape_list(res)}")
    check_numel(_prod(res), res)
    return res


# ================================================================ binary ops
def _operands(a, b, floating=False):
    """NumPy operands of a binary op, cast to PyTorch's result dtype; and that dtype."""
    xa = a._a
    if type(b) is Tensor:
        xb = b._a
        if xa.dtype is not xb.dtype and xa.dtype != xb.dtype:
            rd = D.result_type((a, b))
            if floating and not rd.is_floating_point:
                rd = D.DEFAULT_FLOAT[0]
            xa = xa.astype(rd.np, copy=False)
            xb = xb.astype(rd.np, copy=False)
        elif floating and xa.dtype.kind not in "f":
            xa = xa.astype(D.DEFAULT_FLOAT[0].np)
            xb = xb.astype(D.DEFAULT_FLOAT[0].np)
        if xa.shape != xb.shape:
            _broadcast_shape(xa.shape, xb.shape)
        return xa, xb
    tb = type(b)
    if tb is float:
        if xa.dtype.kind == "f":
            return xa, b
        return xa.astype(D.DEFAULT_FLOAT[0].np), b
    if tb is int:
        if xa.dtype.kind in "iu":
            if xa.dtype.kind == "u" or xa.dtype.itemsize < 8:
                info = np.iinfo(xa.dtype)
                if not info.min <= b <= info.max:
                    return xa, np.asarray(b).astype(xa.dtype)
            return xa, b
        if xa.dtype.kind == "f":
            return xa, float(b) if abs(b) < 2 ** 53 else b
        if xa.dtype.kind == "b":
            return xa.astype(np.int64), b
    if tb is bool:
        if xa.dtype.kind == "b":
            return xa, np.bool_(b)
        return xa, int(b)
    if isinstance(b, (int, float)):
        return _operands(a, float(b) if isinstance(b, float) else int(b), floating)
    raise _Unsupported(f"unsupported operand type(s): 'Tensor' and '{_pytype(b)}'")


class _Unsupported(TypeError):
    """An operand type PyTorch's operators reject: the dunder returns NotImplemented so
    Python words the error (`unsupported operand type(s) for +: 'Tensor' and 'str'`)."""


def _needs(a, b):
    return GRAD[0] and (a._fn is not None or a._rg or (type(b) is Tensor and (b._fn is not None or b._rg)))


def _shapes(a, b):
    sa = a._a.shape if (a._fn is not None or a._rg) else None
    sb = b._a.shape if (type(b) is Tensor and (b._fn is not None or b._rg)) else None
    return sa, sb


def _binary_node(out, spec_name, a, b, saved, ctx):
    t = _new(out)
    t._fn = Node(SPECS[spec_name], (edge_of(a), edge_of(b) if type(b) is Tensor else None), saved, ctx)
    return t


def add(a, b, alpha=1):
    if type(a) is not Tensor:
        a = _as_tensor(a)
    xa, xb = _operands(a, b)
    if alpha != 1:
        xb = xb * alpha
    out = xa + xb
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if _needs(a, b):
        sa, sb = _shapes(a, b)
        return _binary_node(out, "AddBackward0", a, b, (), (sa, sb, alpha))
    return _new(out)


def _check_bool_sub(a, b):
    if a.dtype is D.bool_ and type(b) is Tensor and b.dtype is D.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if a.dtype is D.bool_ or (type(b) is Tensor and b.dtype is D.bool_) or type(b) is bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")


def sub(a, b, alpha=1):
    if type(a) is not Tensor:
        a = _as_tensor(a)
    _check_bool_sub(a, b)
    xa, xb = _operands(a, b)
    if alpha != 1:
        xb = xb * alpha
    out = xa - xb
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if _needs(a, b):
        sa, sb = _shapes(a, b)
        return _binary_node(out, "SubBackward0", a, b, (), (sa, sb, alpha))
    return _new(out)


def rsub(a, b):
    """b - a for a Python number b."""
    if a.dtype is D.bool_ or type(b) is bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    xa, xb = _operands(a, b)
    out = np.asarray(xb - xa)
    if out.dtype != xa.dtype and xa.dtype.kind == "f":
        out = out.astype(xa.dtype)
    if GRAD[0] and a.requires_grad:
        t = _new(out)
        t._fn = Node(SPECS["RsubBackward1"], (edge_of(a),), (), None)
        return t
    return _new(out)


def mul(a, b):
    if type(a) is not Tensor:
        a = _as_tensor(a)
    xa, xb = _operands(a, b)
    out = xa * xb
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if _needs(a, b):
        sa, sb = _shapes(a, b)
        if type(b) is Tensor:
            return _binary_node(out, "MulBackward0", a, b, (a, b), (sa, sb, None))
        return _binary_node(out, "MulBackward0", a, b, (a,), (sa, sb, b))
    return _new(out)


def div(a, b, rounding_mode=None):
    if type(a) is not Tensor:
        a = _as_tensor(a)
    if rounding_mode is not None:
        xa, xb = _operands(a, b)
        out = np.floor_divide(xa, xb) if rounding_mode == "floor" else np.trunc(np.true_divide(xa, xb)).astype(xa.dtype)
        return _new(np.asarray(out))
    xa, xb = _operands(a, b, floating=True)
    if xa.dtype.kind != "f":
        xa = xa.astype(D.DEFAULT_FLOAT[0].np)
    out = xa / xb
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if out.dtype != xa.dtype:
        out = out.astype(xa.dtype)
    if _needs(a, b):
        sa, sb = _shapes(a, b)
        if type(b) is Tensor:
            return _binary_node(out, "DivBackward0", a, b, (a, b), (sa, sb, None))
        return _binary_node(out, "DivBackward0", a, b, (a,), (sa, sb, b))
    return _new(out)


def remainder(a, b):
    xa, xb = _operands(a, b)
    if xa.dtype.kind in "biu" and not np.all(xb):
        raise RuntimeError("ZeroDivisionError")
    # PyTorch's remainder is fmod moved into the divisor's sign: -2. % 2. is -0.
    with np.errstate(all="ignore"):
        out = np.fmod(xa, xb)
        out = np.asarray(np.where((out != 0) & ((out < 0) != (xb < 0)), out + xb, out), dtype=out.dtype)
    if type(b) is Tensor:
        sa, sb = (a._a.shape if a.requires_grad else None), (b._a.shape if b.requires_grad else None)
        return _result(out, "RemainderBackward1", (a, b), (a, b), (sa, sb))
    return _result(out, "RemainderBackward0", (a,), (), None)


def floor_divide(a, b):
    xa, xb = _operands(a, b)
    if xa.dtype.kind in "biu" and not np.all(xb):
        raise RuntimeError("ZeroDivisionError")
    with np.errstate(all="ignore"):
        out = np.asarray(np.floor_divide(xa, xb))
    # PyTorch defines no derivative: the result still requires grad, backward through it fails
    return _result(out, "NotImplemented", (a, b if type(b) is Tensor else None), (), "aten::floor_divide")


def pow(a, b):
    if type(a) is not Tensor:
        return rpow(_as_tensor(b), a) if type(b) is Tensor else _new(np.asarray(a ** b))
    if type(b) is Tensor:
        xa, xb = _operands(a, b)
        if xa.dtype.kind in "iu" and (xb < 0).any():
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        with np.errstate(all="ignore"):
            out = np.asarray(np.power(xa, xb))
        if _needs(a, b):
            t = _new(out)
            node = t._fn = Node(SPECS["PowBackward1"], (edge_of(a), edge_of(b)), (a, b, t), _shapes(a, b))
            node.saved = (a, b, SavedOutput(t, node))
            node.saved_outputs = (2,)
            return t
        return _new(out)
    if not isinstance(b, (int, float)):
        raise TypeError(f"unsupported operand type(s) for ** or pow(): 'Tensor' and '{_pytype(b)}'")
    xa = a._a
    if xa.dtype.kind in "iub":
        if isinstance(b, float):
            xa = xa.astype(D.DEFAULT_FLOAT[0].np)
        elif b < 0:
            raise RuntimeError("Integers to negative integer powers are not allowed.")
        elif xa.dtype.kind == "b":
            xa = xa.astype(np.int64)
    with np.errstate(all="ignore"):
        if b == 2:
            out = xa * xa
        elif b == 0.5:
            out = np.sqrt(xa)
        else:
            out = np.power(xa, b if isinstance(b, float) or xa.dtype.kind == "f" else b)
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if out.dtype != xa.dtype:
        out = out.astype(xa.dtype)
    if GRAD[0] and (a._fn is not None or a._rg):
        t = _new(out)
        t._fn = Node(SPECS["PowBackward0"], (edge_of(a),), (a,), b)
        return t
    return _new(out)


def rpow(a, base):
    """base ** a for a Python number base."""
    if not isinstance(base, (int, float)):
        raise _Unsupported(f"unsupported operand type(s): '{_pytype(base)}' and 'Tensor'")
    xa = a._a
    if xa.dtype.kind != "f" and isinstance(base, float):
        xa = xa.astype(D.DEFAULT_FLOAT[0].np)
    with np.errstate(all="ignore"):
        out = np.asarray(np.power(np.asarray(base, xa.dtype) if xa.dtype.kind == "f" else base, xa))
    if xa.dtype.kind == "f" and out.dtype != xa.dtype:
        out = out.astype(xa.dtype)
    if GRAD[0] and a.requires_grad:
        t = _new(out)
        node = t._fn = Node(SPECS["PowBackward2"], (edge_of(a),), (t,), base)
        node.saved = (SavedOutput(t, node),)
        node.saved_outputs = (0,)
        return t
    return _new(out)


def neg(a):
    if a.dtype is D.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    out = np.negative(a._a)
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    if GRAD[0] and (a._fn is not None or a._rg):
        t = _new(out)
        t._fn = Node(SPECS["NegBackward0"], (edge_of(a),), (), None)
        return t
    return _new(out)


def _compare(a, b, fn):
    if type(b) is Tensor or isinstance(b, (int, float, bool)):
        xa, xb = _operands(a, b)
        return _new(np.asarray(fn(xa, xb)))
    if b is None:
        return fn is np.not_equal
    try:
        bt = _as_tensor(b)
    except Exception:
        return False if fn is np.equal else (True if fn is np.not_equal else NotImplemented)
    return _compare(a, bt, fn)


def _nograd_binary(a, b, fn, name):
    xa, xb = _operands(a, b)
    with np.errstate(all="ignore"):
        return _new(np.asarray(fn(xa, xb)))


def maximum(a, b):
    xa, xb = _operands(a, b)
    out = np.asarray(np.maximum(xa, xb))
    return _result(out, "MaximumBackward0", (a, b), (a, b), _shapes(a, b))


def minimum(a, b):
    xa, xb = _operands(a, b)
    out = np.asarray(np.minimum(xa, xb))
    return _result(out, "MinimumBackward0", (a, b), (a, b), _shapes(a, b))


# ================================================================ unary ops
def _f64(fn):
    """A float32 transcendental function evaluated in float64 and rounded once: this matches
    PyTorch's results to the last bit far more often than NumPy's float32 SIMD kernels."""
    def f(a):
        if a.dtype == np.float32:
            return fn(a.astype(np.float64)).astype(np.float32)
        return fn(a)
    f.__name__ = fn.__name__
    return f


_exp = _f64(np.exp)


def _sigmoid(a):
    with np.errstate(over="ignore"):
        one = a.dtype.type(1)
        return (one / (one + _exp(-a))).astype(a.dtype, copy=False)


def _rounding(fn, name):
    """floor/ceil/round: integer tensors come back unchanged, in their own dtype; bool has no kernel."""
    def f(a):
        if a.dtype.kind == "b":
            raise NotImplementedError(f'"{name}_vml_cpu" not implemented for \'Bool\'')
        return fn(a) if a.dtype.kind == "f" else a.copy()
    return f


def _unary(a, fn, spec_name, save, float_only=True):
    xa = a._a
    if float_only and xa.dtype.kind != "f":
        xa = xa.astype(D.DEFAULT_FLOAT[0].np)
    out = fn(xa)
    if type(out) is not np.ndarray:
        out = np.asarray(out, dtype=xa.dtype)
    if GRAD[0] and (a._fn is not None or a._rg):
        t = _new(out)
        if save == "result":
            node = t._fn = Node(SPECS[spec_name], (edge_of(a),), (t,), None)
            node.saved = (SavedOutput(t, node),)
            node.saved_outputs = (0,)
        else:
            t._fn = Node(SPECS[spec_name], (edge_of(a),), (a,) if save == "self" else (), None)
        return t
    return _new(out)


def clamp(a, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    lo = min.item() if type(min) is Tensor else min
    hi = max.item() if type(max) is Tensor else max
    out = a._a
    if lo is not None:
        out = np.maximum(out, np.asarray(lo, out.dtype if out.dtype.kind == "f" or isinstance(lo, int) else np.float32))
    if hi is not None:
        out = np.minimum(out, np.asarray(hi, out.dtype if out.dtype.kind == "f" or isinstance(hi, int) else np.float32))
    return _result(np.asarray(out), "ClampBackward1", (a,), (a,), (lo, hi))


# ================================================================ reductions
def reduce_sum(a, dim=None, keepdim=False, dtype=None):
    xa = a._a
    acc = dtype.np if dtype is not None else (np.int64 if xa.dtype.kind in "biu" else xa.dtype)
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        exact = full_sum(xa) if xa.dtype == acc else None
        out = np.asarray(np.sum(xa, dtype=acc) if exact is None else exact)
        if keepdim:
            out = out.reshape((1,) * xa.ndim)
        if dim is None and not keepdim:
            return _result(out, "SumBackward0", (a,), (), xa.shape)
        return _result(out, "SumBackward1", (a,), (), (xa.shape, tuple(range(xa.ndim)), keepdim))
    dims = _dims_tuple(dim, xa.ndim)
    out = np.asarray(np.sum(xa, axis=dims, dtype=acc, keepdims=keepdim))
    return _result(out, "SumBackward1", (a,), (), (xa.shape, dims, keepdim))


def _keepdim(name, dim, keepdim):
    """keepdim of a full reduction: PyTorch has no overload taking keepdim without dim."""
    if keepdim is None:
        return False
    if type(keepdim) is not bool:
        raise TypeError(f"{name}(): argument 'keepdim' must be bool, not {_pytype(keepdim)}")
    if dim is None:
        raise TypeError(f"{name}() received an invalid combination of arguments - got (keepdim=bool, ), "
                        "but expected one of:")
    return keepdim


def _dims_tuple(dim, ndim):
    if isinstance(dim, (tuple, list)):
        wrapped = [_dim(d, ndim) for d in dim]
        for i, d in enumerate(wrapped):
            if d in wrapped[:i]:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        dims = tuple(sorted(wrapped))
    else:
        dims = (_dim(dim, ndim),)
    return dims if ndim else ()  # a 0-d tensor reduces over dim 0 or -1 as over nothing


def reduce_mean(a, dim=None, keepdim=False, dtype=None):
    xa = a._a
    if dtype is not None:
        xa = xa.astype(dtype.np)
    elif xa.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
            f"Got: {_legacy_scalar(a.dtype)}")
    if dim is None:
        exact = full_sum(xa)
        if exact is not None:   # PyTorch: the sum in its order, then one division
            out = np.asarray(exact / xa.dtype.type(xa.size) if xa.size else np.nan, dtype=xa.dtype)
        else:
            out = np.asarray(np.mean(xa), dtype=xa.dtype)
        return _result(out, "MeanBackward0", (a,), (), xa.shape)
    dims = _dims_tuple(dim, xa.ndim)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.asarray(np.mean(xa, axis=dims, keepdims=keepdim), dtype=xa.dtype)
    return _result(out, "MeanBackward1", (a,), (), (xa.shape, dims, keepdim))


def reduce_prod(a, dim=None, keepdim=False):
    xa = a._a
    acc = np.int64 if xa.dtype.kind in "biu" else xa.dtype
    if dim is None:
        out = np.asarray(np.prod(xa, dtype=acc))
        t = _result(out, "ProdBackward0", (a,), (a, _RESULT), None)
        return t
    d = _dim(dim, xa.ndim)
    out = np.asarray(np.prod(xa, axis=d, dtype=acc, keepdims=keepdim))
    return _result(out, "ProdBackward1", (a,), (a, _RESULT), (d, keepdim))


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
        from gradrepl.engine.printing import return_types_repr
        return return_types_repr(self._name, [("values", repr(self[0])), ("indices", repr(self[1]))])


class MaxReturn(ReturnTypes):
    __slots__ = ()
    _name = "max"


class MinReturn(ReturnTypes):
    __slots__ = ()
    _name = "min"


def reduce_max(a, dim, keepdim, which):
    xa = a._a
    fn = np.max if which == "max" else np.min
    if dim is None:
        if xa.size == 0:
            raise RuntimeError(f"{which}(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        out = np.asarray(fn(xa))
        return _result(out, "MaxBackward1" if which == "max" else "MinBackward1", (a,), (a, _RESULT), None)
    d = _dim(dim, xa.ndim)
    arg = np.argmax if which == "max" else np.argmin
    idx = np.asarray(arg(xa, axis=d, keepdims=keepdim) if xa.ndim else np.zeros((), np.int64)).astype(np.int64)
    vals = np.asarray(fn(xa, axis=d, keepdims=keepdim) if xa.ndim else xa.copy())
    idx_t = _new(idx)
    v = _result(vals, "MaxBackward0" if which == "max" else "MinBackward0", (a,), (idx_t,), (xa.shape, d, keepdim))
    return (MaxReturn if which == "max" else MinReturn)((v, idx_t))


def _arg(a, dim, keepdim, fn):
    xa = a._a
    if xa.dtype.kind == "b":
        raise RuntimeError(f"{'argmax' if fn is np.argmax else 'argmin'}(): does not support bool input")
    if dim is None:
        return _new(np.asarray(fn(xa), dtype=np.int64))
    d = _dim(dim, xa.ndim)
    return _new(np.asarray(fn(xa, axis=d, keepdims=keepdim), dtype=np.int64))


def norm(a, p="fro", dim=None, keepdim=False):
    xa = a._a
    if xa.dtype.kind != "f":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {_legacy_scalar(a.dtype)}")
    dims = None if dim is None else _dims_tuple(dim, xa.ndim)
    p = 2.0 if p == "fro" else float(p)
    with np.errstate(all="ignore"):
        absa = np.abs(xa)
        if p == 2:
            sq = np.sum(xa * xa, axis=dims, keepdims=keepdim)
            out = np.sqrt(sq)
        elif p == 0:
            out = np.sum(xa != 0, axis=dims, keepdims=keepdim)
        elif p == 1:
            out = np.sum(absa, axis=dims, keepdims=keepdim)
        elif p == float("inf"):
            out = np.max(absa, axis=dims, keepdims=keepdim)
        elif p == -float("inf"):
            out = np.min(absa, axis=dims, keepdims=keepdim)
        else:
            out = np.sum(absa ** xa.dtype.type(p), axis=dims, keepdims=keepdim) ** xa.dtype.type(1.0 / p)
    out = np.asarray(out, dtype=xa.dtype)
    return _result(out, "LinalgVectorNormBackward0", (a,), (a, _RESULT), (dims, keepdim, p))


def _var(a, dim, unbiased, keepdim, correction, std):
    xa = a._a
    if xa.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if correction is None:
        correction = 0 if unbiased is False else 1
    dims = None if dim is None else _dims_tuple(dim, xa.ndim)
    with np.errstate(all="ignore"):
        # PyTorch accumulates var/std of float32 in double (Welford) and rounds once at the end
        out = np.var(xa.astype(np.float64), axis=dims, ddof=correction, keepdims=keepdim)
        if std:
            out = np.sqrt(out)
        out = np.asarray(out, dtype=xa.dtype)
    if std:
        return _result(out, "StdBackward0", (a,), (a, _RESULT), (dims, correction, keepdim))
    return _result(out, "VarBackward0", (a,), (a,), (dims, correction, keepdim))


def _softmax_dtype_check(a, d, name):
    if a._a.dtype.kind != "f":
        kernel = f"{name}_lastdim_kernel_impl" if d == max(a._a.ndim - 1, 0) else f"{name}_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_legacy_scalar(a.dtype)}\'')


def softmax(a, dim, dtype=None):
    xa = a._a if a._a.dtype.kind == "f" else a._a.astype(np.float32)
    d = _dim(dim, xa.ndim)
    if dtype is None:
        _softmax_dtype_check(a, d, "softmax")
    m = np.max(xa, axis=d, keepdims=True) if xa.size else 0
    e = np.exp(xa - m)
    out = np.asarray(e / np.sum(e, axis=d, keepdims=True), dtype=xa.dtype)
    return _result(out, "SoftmaxBackward0", (a,), (_RESULT,), d)


def log_softmax(a, dim, dtype=None):
    xa = a._a if a._a.dtype.kind == "f" else a._a.astype(np.float32)
    d = _dim(dim, xa.ndim)
    if dtype is None:
        _softmax_dtype_check(a, d, "log_softmax")
    m = np.max(xa, axis=d, keepdims=True) if xa.size else 0
    s = xa - m
    out = np.asarray(s - np.log(np.sum(np.exp(s), axis=d, keepdims=True)), dtype=xa.dtype)
    return _result(out, "LogSoftmaxBackward0", (a,), (_RESULT,), d)


# ================================================================ linear algebra
_NP_NAME = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "float16": "c10::Half",
            "bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int"}


def _check_same_dtype(a, b, what="m1 and m2"):
    if a._a.dtype != b._a.dtype:
        raise RuntimeError(f"expected {what} to have the same dtype, but got: "
                           f"{_NP_NAME[a.dtype.name]} != {_NP_NAME[b.dtype.name]}")


def dot(a, b):
    if a._a.ndim != 1 or b._a.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a._a.ndim}D and {b._a.ndim}D tensors")
    if a._a.shape != b._a.shape:
        n, m = a._a.shape[0], b._a.shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same number "
                           f"of elements, but got {n} and {m} elements respectively")
    if a._a.dtype != b._a.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_legacy_scalar(a.dtype)} "
                           f"and {_legacy_scalar(b.dtype)}")
    out = np.asarray(np.dot(a._a, b._a))
    return _result(out, "DotBackward0", (a, b), (a, b), None)


def mv(a, b):
    if a._a.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if a._a.ndim != 2 or b._a.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a._a.ndim}, {b._a.ndim}")
    if a._a.shape[1] != b._a.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a._a.shape[0]}), mat ({'x'.join(map(str, a._a.shape))}), "
                           f"vec ({b._a.shape[0]})")
    _check_same_dtype(a, b, "m1 and m2")
    return _result(np.asarray(a._a @ b._a), "MvBackward0", (a, b), (a, b), None)


def mm(a, b):
    if a._a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b._a.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._a.shape[1] != b._a.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a._a.shape[0]}x{a._a.shape[1]} and "
                           f"{b._a.shape[0]}x{b._a.shape[1]})")
    _check_same_dtype(a, b)
    check_numel(a._a.shape[0] * b._a.shape[1])
    return _result(a._a @ b._a, "MmBackward0", (a, b), (a, b), None)


def matmul(a, b):
    if type(b) is not Tensor:
        raise TypeError(f"matmul(): argument 'other' (position 1) must be Tensor, not {_pytype(b)}")
    na, nb = a._a.ndim, b._a.ndim
    if na == 0 or nb == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {na}D and {nb}D")
    if na == 1 and nb == 1:
        return dot(a, b)
    if na == 2 and nb == 1:
        return mv(a, b)
    if na == 2 and nb == 2:
        return mm(a, b)
    sa, sb = a._a.shape, b._a.shape
    if na == 1 and nb == 2:
        if sa[0] != sb[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{sa[0]} and {sb[0]}x{sb[1]})")
    elif _matmul_folds(a, b):
        _check_folded_matmul(sa, sb)
    else:
        batch = _broadcast_shape(sa[:-2], sb[:-2])
        m1, m2 = sa[-1], (sb[-2] if nb > 1 else sb[0])
        if m1 != m2:
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{_prod(batch)}, {m1}] "
                               f"but got: [{_prod(batch)}, {m2}].")
    _check_same_dtype(a, b)
    batch = _broadcast_shape(sa[:-2] if na > 2 else (), sb[:-2] if nb > 2 else ())
    check_numel(_prod(batch) * (sa[-2] if na > 1 else 1) * (sb[-1] if nb > 1 else 1))
    out = np.asarray(np.matmul(a._a, b._a))
    name = "SqueezeBackward4" if na == 1 or nb == 1 and na == 2 else ("UnsafeViewBackward0" if True else "BmmBackward0")
    if nb == 1 and na > 2:
        name = "UnsafeViewBackward0"
    return _result(out, name, (a, b), (a, b), (sa, sb))


def _matmul_folds(a, b):
    """PyTorch's should_fold: a 3-D-or-more operand against a vector or matrix runs as one mm/mv
    on the folded larger operand (which decides the error message a shape mismatch gets)."""
    na, nb = a._a.ndim, b._a.ndim
    larger, smaller = (a, b) if na >= nb else (b, a)
    if not (larger._a.ndim >= 3 and smaller._a.ndim <= 2):
        return False
    if smaller.requires_grad:
        return True
    if na == 2:
        return False
    shape = list(larger._a.shape)
    strides = [_prod(shape[i + 1:]) for i in range(len(shape))]  # PyTorch's contiguous strides
    if larger is b:  # the larger operand enters transposed (mT)
        shape[-1], shape[-2] = shape[-2], shape[-1]
        strides[-1], strides[-2] = strides[-2], strides[-1]
    if 0 in shape:
        return True
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))


def _check_folded_matmul(sa, sb):
    if len(sb) > len(sa):  # b @ ... folded as (b.mT @ a.mT).mT
        t1 = sb[:-2] + (sb[-1], sb[-2])
        t2 = (sa[1], sa[0]) if len(sa) == 2 else sa
    else:
        t1, t2 = sa, sb
    rows, k = _prod(t1[:-1]), t1[-1]
    if k != t2[0]:
        if len(t2) == 2:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and {t2[0]}x{t2[1]})")
        raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x{k}), vec ({t2[0]})")


# ================================================================ indexing
def _norm_index(t, index):
    """A NumPy index from a PyTorch one (Tensors become arrays), bounds-checked with PyTorch's messages."""
    items = index if type(index) is tuple else (index,)
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
            if i.dtype is D.bool_:
                m = i._a
                if m.shape != t._a.shape[dim:dim + m.ndim]:
                    raise IndexError(f"The shape of the mask {_shape_list(m.shape)} at index {0} does not match the "
                                     f"shape of the indexed tensor {_shape_list(t._a.shape)} at index {dim}")
                out.append(m)
                dim += m.ndim
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
        if isinstance(i, (list, tuple)):
            arr = np.asarray([x.item() if type(x) is Tensor else x for x in i])
            if arr.dtype.kind == "f":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            size = t._a.shape[dim]
            if arr.dtype.kind in "iu" and arr.size and (arr.max() >= size or arr.min() < -size):
                bad = int(arr.max()) if arr.max() >= size else int(arr.min())
                raise IndexError(f"index {bad} is out of bounds for dimension {dim} with size {size}")
            out.append(arr)
            dim += 1
            advanced = True
            continue
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
                         "indices (got " + _pytype(i) + ")")
    return tuple(out), advanced


def _basic_name(idx):
    name = "AliasBackward0"
    for i in idx:
        if isinstance(i, int):
            name = "SelectBackward0"
        elif isinstance(i, slice) and i != slice(None):
            name = "SliceBackward0"
        elif i is None:
            name = "UnsqueezeBackward0"
    return name


def getitem(t, index):
    idx, advanced = _norm_index(t, index)
    return getitem_raw(t, idx, advanced)


def getitem_raw(t, idx, advanced=None):
    if advanced is None:
        advanced = not all(isinstance(i, (int, slice, type(None), type(Ellipsis))) for i in (idx if type(idx) is tuple else (idx,)))
    arr = t._a[idx]
    if advanced:
        if type(arr) is not np.ndarray:
            arr = np.asarray(arr)
        return _result(arr, "IndexBackward0", (t,), (), (t._a.shape, idx))
    if type(arr) is not np.ndarray:
        arr = t._a[idx + (Ellipsis,)] if type(idx) is tuple else t._a[(idx, Ellipsis)]
    r = _result(arr, _basic_name(idx if type(idx) is tuple else (idx,)), (t,), (), (t._a.shape, idx))
    r._ver = t._ver
    r._base = t
    r._vidx = idx
    _no_grad_view(r, t)
    return r


def index_backward(g, shape, index):
    """zeros(shape) with g put at index, differentiable (create_graph of indexing)."""
    z = np.zeros(shape, g._a.dtype)
    if all(isinstance(i, (int, slice, type(None), type(Ellipsis))) for i in (index if type(index) is tuple else (index,))):
        z[index] = g._a
    else:
        np.add.at(z, index, g._a)
    return _result(z, "IndexPutBackward0", (g,), (), (shape, index))


def _check_writable(t):
    """An expanded tensor shares one element among many positions: PyTorch refuses to write it."""
    if not t._a.flags.writeable and any(st == 0 and n > 1 for st, n in zip(t._a.strides, t._a.shape)):
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a single "
                           "memory location. Please clone() the tensor before performing the operation.")


def _check_leaf_inplace(t, through_view=False):
    if not GRAD[0]:
        _check_writable(t)
        return
    if t._fn is None and t._rg:
        if through_view or t._base is not None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = t._base
    if base is not None and base._fn is None and base._rg:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    _check_writable(t)


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


def setitem(t, index, value):
    idx, advanced = _norm_index(t, index)
    whole = not advanced and _whole(t, idx)
    _check_leaf_inplace(t, through_view=not (advanced or whole))
    if type(value) is Tensor:
        v = value._a
        if v.dtype != t._a.dtype:
            v = v.astype(t._a.dtype)
    elif isinstance(value, (int, float, bool)):
        v = value
    else:
        from gradrepl.engine.functions import tensor
        value = tensor(value)
        v = value._a.astype(t._a.dtype)
    target_shape = t._a[idx].shape
    if type(v) is np.ndarray and v.shape != target_shape:
        try:
            np.broadcast_shapes(v.shape, target_shape)
            if len(v.shape) > len(target_shape) and any(s != 1 for s in v.shape[:len(v.shape) - len(target_shape)]):
                raise ValueError
        except ValueError:
            raise RuntimeError(f"shape mismatch: value tensor of shape {_shape_list(v.shape)} cannot be broadcast to "
                               f"indexing result of shape {_shape_list(target_shape)}") from None
        if len(v.shape) > len(target_shape):
            v = v.reshape(v.shape[len(v.shape) - len(target_shape):])
    t._a[idx] = v
    t._ver[0] += 1
    src_rg = type(value) is Tensor and value.requires_grad
    if GRAD[0] and (t.requires_grad or src_rg) and t._a.dtype.kind == "f":  # integer tensors have no history
        spec = SPECS["CopySlices"]
        if advanced and t._base is None:  # index_put_ on a tensor that is not a view
            spec = SPECS["CopySlices as IndexPutBackward0"]
        elif whole:
            scalar = type(value) is not Tensor or value._a.ndim == 0
            spec = SPECS["CopySlices as FillBackward3" if scalar else "CopySlices as CopyBackwards"]
        node = Node(spec, (edge_of(t) if t.requires_grad else None,
                                          edge_of(value) if src_rg else None), (),
                    (idx, value._a.shape if src_rg else None, t.requires_grad))
        t._fn, t._onr = node, 0
        _rebase_view(t, t)


# ================================================================ in-place
def _inplace(t, other, op, **kw):
    _check_leaf_inplace(t)
    if type(other) is Tensor:  # PyTorch checks the output shape before the output dtype
        _broadcast_shape(t._a.shape, other._a.shape, out=t._a.shape)
    if op is sub:
        _check_bool_sub(t, other)
    if t._a.dtype.kind != "f":
        rd = D.result_type((t, other)) if other is not None else t.dtype
        if op is div:
            rd = D.DEFAULT_FLOAT[0] if not rd.is_floating_point else rd
        if rd is not t.dtype and D.promote_types(rd, t.dtype) is not t.dtype:
            raise RuntimeError(f"result type {_legacy_scalar(rd)} can't be cast to the desired output type "
                               f"{_legacy_scalar(t.dtype)}")
    needs = GRAD[0] and (t.requires_grad or (type(other) is Tensor and other.requires_grad))
    if needs:
        # the op's node must see the old value: compute on a snapshot carrying t's history
        snap = _new(t._a.copy())
        snap._fn, snap._onr, snap._rg = t._fn, t._onr, t._rg
        r = op(snap, other, **kw) if other is not None or kw else op(snap, None)
    else:
        r = op(t.detach() if t._fn is not None else _new(t._a), other, **kw) if other is not None or kw else op(_new(t._a), None)
    if r._a.shape != t._a.shape:
        raise RuntimeError(f"output with shape {_shape_list(t._a.shape)} doesn't match the broadcast shape "
                           f"{_shape_list(r._a.shape)}")
    t._a[...] = r._a
    t._ver[0] += 1
    if needs:
        t._fn, t._onr = r._fn, r._onr
        _rebase_view(t, r)
    return t


def _rebase_view(view, r):
    """An in-place op on a view changes its base: the base's history gains a CopySlices that
    writes the view's new value, and the view becomes a slice of that (AsStridedBackward0),
    as in PyTorch. Only views made by basic indexing of a tensor that is not itself a view."""
    base = view._base
    if base is None or view._vidx is None or base._base is not None:
        return
    node = Node(SPECS["CopySlices"], (edge_of(base) if base.requires_grad else None, edge_of(r)), (),
                (view._vidx, r._a.shape, base.requires_grad))
    base._fn, base._onr = node, 0
    view._fn = Node(SPECS["AsStridedBackward0"], (edge_of(base),), (), (base._a.shape, view._vidx))
    view._onr = 0


def _fill_inplace(t, value, name):
    _check_leaf_inplace(t)
    t._a[...] = value
    t._ver[0] += 1
    if GRAD[0] and t._fn is not None:
        t._fn = Node(SPECS[name], (edge_of(t),), (), None)
        t._onr = 0
    return t


# ================================================================ backward entry points
def _make_grads(outputs, grads):
    out = []
    for i, t in enumerate(outputs):
        g = None if grads is None else grads[i]
        if g is None:
            if t.requires_grad:
                if t._a.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not t.dtype.is_floating_point:
                    raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {t.dtype}")
                g = _new(np.ones(t._a.shape, t._a.dtype))
            out.append(g)
            continue
        if type(g) is not Tensor:
            if isinstance(g, (int, float)):
                g = _new(np.asarray(g, t._a.dtype))
            else:
                raise TypeError(f"gradients can be either Tensors or None, but got {_pytype(g)}")
        if g._a.shape != t._a.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {Size(g._a.shape)!r} and "
                               f"output[{i}] has a shape of {Size(t._a.shape)!r}.")
        if g._a.dtype != t._a.dtype:
            g = g.to(t.dtype)
        out.append(g)
    return out


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None, trace=None):
    if type(tensors) is Tensor:
        tensors = [tensors]
    tensors = list(tensors)
    if grad_tensors is not None:
        if type(grad_tensors) is Tensor:
            grad_tensors = [grad_tensors]
        grad_tensors = list(grad_tensors)
        if len(grad_tensors) != len(tensors):
            raise RuntimeError("grad can be implicitly created only for scalar outputs")
    grads = _make_grads(tensors, grad_tensors)
    if retain_graph is None:
        retain_graph = create_graph
    keep = [(t, g) for t, g in zip(tensors, grads) if g is not None or not t.requires_grad]
    roots = [t for t, _ in keep]
    gs = [g for _, g in keep]
    if inputs is not None:
        if type(inputs) is Tensor:
            inputs = [inputs]
        inputs = list(inputs)
        res = run_backward(roots, gs, retain_graph=retain_graph, create_graph=create_graph, inputs=inputs,
                           accumulate=False, allow_unused=True)
        for t, g in zip(inputs, res):
            if g is not None:
                from gradrepl.engine.autograd import _accumulate
                _accumulate(t, g if create_graph else g._a, create_graph, wrap)
        return
    run_backward(roots, gs, retain_graph=retain_graph, create_graph=create_graph, trace=trace)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    single_in = type(inputs) is Tensor
    outputs = [outputs] if type(outputs) is Tensor else list(outputs)
    inputs = [inputs] if single_in else list(inputs)
    for t in inputs:
        if type(t) is not Tensor:
            raise TypeError(f"grad(): inputs must be Tensors, got {_pytype(t)}")
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if grad_outputs is not None:
        grad_outputs = [grad_outputs] if type(grad_outputs) is Tensor else list(grad_outputs)
    grads = _make_grads(outputs, grad_outputs)
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    res = run_backward(outputs, grads, retain_graph=retain_graph, create_graph=create_graph, inputs=inputs,
                       accumulate=False, allow_unused=allow_unused)
    if materialize_grads:
        res = [(_new(np.zeros_like(t._a)) if g is None else g) for t, g in zip(inputs, res)]
    return tuple(res)
