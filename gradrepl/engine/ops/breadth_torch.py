"""torch.* and Tensor names of issue 14's coverage list (helper api1): rsub, fill, the window
functions, nextafter, unsafe_split/chunk, Tensor.bernoulli, the method forms of torch
functions (polygamma, mvlgamma, logdet, slogdet, pinverse, qr), the functions PyTorch removed
(solve, lstsq, eig, symeig, matrix_rank: their RuntimeError), the storage queries
(output_nr, is_pinned, is_shared, share_memory_) and the flags of the torch namespace."""
import math

import numpy as np
from numpy.lib import _function_base_impl as _cephes

from gradrepl.engine import creation
from gradrepl.engine import dtypes as D
from gradrepl.engine.kernels import _libm
from gradrepl.engine.autograd import GRAD, Node, edge_of
from gradrepl.engine.ops import linalg_ext, meta, special
from gradrepl.engine.ops import nn as nn_ops
from gradrepl.engine.ops import reduce as reduce_ops
from gradrepl.engine.ops.common import as_tensor, check_leaf_inplace, operands, result
from gradrepl.engine.ops.elementwise import NotImplemented_, RsubBackward1, _alpha_fma, _check_bool_sub, sub
from gradrepl.engine.ops.inplace import binary_inplace, unary_inplace
from gradrepl.engine.ops.meta import MEMORY_FORMATS
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.ops.shape import _split_backward
from gradrepl.engine.ops.shape import cat as _cat
from gradrepl.engine.ops.sorting import returns
from gradrepl.engine.rounding import fma32
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.messages import msg
from gradrepl.engine.util import broadcast_shape, cname, legacy_scalar, pytype, shape_list, warn, wrap_dim


# ------------------------------------------------------------------ rsub
@rule("RsubBackward0", ("self", "other"), ("-grad * alpha", "grad"), ctx=("self_shape", "other_shape", "alpha"))
def RsubBackward0(grad, xp, self_shape, other_shape, alpha):
    return (None if self_shape is None else xp.sum_to(-grad * alpha if alpha != 1 else -grad, self_shape),
            None if other_shape is None else xp.sum_to(grad, other_shape))


_RSUB_SIGNATURES = (" * (Tensor input, Tensor other, *, Number alpha = 1)\n"
                    " * (Tensor input, Number other, Number alpha = 1)\n")


def rsub(input, other, alpha=1):
    """torch.rsub(input, other, alpha=1): other - alpha * input (sub with its operands swapped)."""
    if type(input) is not Tensor or not (type(other) is Tensor or isinstance(other, (int, float, bool))):
        raise TypeError(f"rsub() received an invalid combination of arguments - got ({pytype(input)}, "
                        f"{pytype(other)}), but expected one of:\n{_RSUB_SIGNATURES}")
    if type(other) is not Tensor:
        _check_bool_sub(input, other)
        xa, xb = operands(input, other)
        out = np.asarray(xb - xa if alpha == 1 else _alpha_fma(np.full(xa.shape, xb, xa.dtype), xa, -alpha))
        if out.dtype != xa.dtype and xa.dtype.kind in "fV":
            out = out.astype(xa.dtype)
        if alpha == 1:
            return result(out, RsubBackward1, (input,))
        return result(out, _RsubScalar, (input,), (), alpha)
    prev = GRAD[0]
    GRAD[0] = False
    try:
        out = sub(other, input, alpha)._a
    finally:
        GRAD[0] = prev
    shapes = (input._a.shape if input.requires_grad else None, other._a.shape if other.requires_grad else None)
    return result(out, RsubBackward0, (input, other), (), (*shapes, alpha))


@rule("RsubBackward1", ("self",), ("-grad * alpha",), ctx=("alpha",), key="RsubBackward1_alpha")
def _RsubScalar(grad, xp, alpha):
    return (-grad * alpha,)


declare("rsub", rsub, method=False, rules=[RsubBackward0, RsubBackward1, _RsubScalar])


# ------------------------------------------------------------------ fill (out of place)
@rule("FillBackward0", ("self",), ("zeros_like(grad)",))
def FillBackward0(grad, xp):
    return (xp.zeros_like(grad),)


@rule("FillBackward1", ("self", "value"), ("zeros_like(grad)", "grad.sum()"))
def FillBackward1(grad, xp, node):
    e = node.edges
    return (xp.zeros_like(grad) if e[0] is not None else None, xp.sum_to(grad, ()) if e[1] is not None else None)


def fill(input, value):
    """torch.fill(input, value): a new tensor of input's shape and dtype, filled with value."""
    if type(value) is Tensor:
        if value._a.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with {value._a.ndim} "
                               "dimensions.")
        out = np.full(input._a.shape, value._a, input._a.dtype)
        return result(out, FillBackward1, (input, value))
    out = np.full(input._a.shape, value).astype(input._a.dtype) if input._a.dtype.kind in "iub" and \
        isinstance(value, float) else np.full(input._a.shape, value, input._a.dtype)
    return result(out, FillBackward0, (input,))


declare("fill", fill, method=False, rules=[FillBackward0, FillBackward1])


# ------------------------------------------------------------------ window functions
_WINDOW_OPTS = ("*, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
                "bool pin_memory = False, bool requires_grad = False")


def _make_window(name, window_length, periodic, dtype, requires_grad, values):
    """A window function's checks, its one-element and empty windows, and the periodic trim:
    values(n, dt) gives the symmetric window of n points as an array (the last one dropped
    when periodic)."""
    if type(window_length) is not int:
        raise TypeError(f"{name}(): argument 'window_length' (position 1) must be int, not {pytype(window_length)}")
    dt = D.DEFAULT_FLOAT[0] if dtype is None else dtype
    if not dt.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={cname(dt)}, device=cpu, "
                           "layout=Strided (default), requires_grad=false (default), pinned_memory=false, "
                           "memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    if window_length <= 1:
        w = np.ones(window_length, dt.np)
    else:
        w = values(window_length + 1 if periodic else window_length, dt)[:window_length]
    t = _new(np.ascontiguousarray(w.astype(dt.np, copy=False)))
    if requires_grad:
        t.requires_grad_(True)
    return t


def _arange(n, dt):
    return _new(np.arange(n).astype(dt.np))


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   pin_memory=False, requires_grad=False, name="hamming_window"):
    def values(n, dt):
        # PyTorch: arange(n).mul_(2 pi / (n - 1)).cos_().mul_(-beta).add_(alpha), in the window's dtype
        return ((_arange(n, dt) * (math.pi * 2.0 / (n - 1))).cos() * -beta + alpha)._a
    return _make_window(name, window_length, periodic, dtype, requires_grad, values)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, requires_grad=requires_grad,
                          name="hann_window")


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    def values(n, dt):
        w = _arange(n, dt) * (math.pi / (n - 1))
        return ((w * 4).cos() * 0.08 - (w * 2).cos() * 0.5 + 0.42)._a
    return _make_window("blackman_window", window_length, periodic, dtype, requires_grad, values)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    def values(n, dt):
        w = (_arange(n, dt) * (2.0 / (n - 1)))._a
        half = ((n - 1) >> 1) + 1
        w[half:] = (_new(w[half:]) * -1 + 2)._a
        return w
    return _make_window("bartlett_window", window_length, periodic, dtype, requires_grad, values)


def _chbevl32(x, coefficients):
    """Cephes' chbevl in float32 as PyTorch's CPU kernels compile it (x * b1 - b2 one fused
    multiply-add)."""
    b0, b1, b2 = np.full_like(x, coefficients[0]), np.zeros_like(x), np.zeros_like(x)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = fma32(x, b1, -b2) + c
    return np.float32(0.5) * (b0 - b2)


def _i0_32(x):
    """PyTorch's calc_i0 on float32 (Cephes' Chebyshev series, the float coefficients)."""
    x = np.abs(x)
    small = x <= 8
    exp = np.exp(x.astype(np.float64)).astype(np.float32)
    near = exp * _chbevl32(x / np.float32(2) - np.float32(2), _I0_A)
    far_x = np.where(small, np.float32(8), x)
    far = np.exp(far_x.astype(np.float64)).astype(np.float32) * _chbevl32(np.float32(32) / far_x - np.float32(2),
                                                                          _I0_B) / np.sqrt(far_x)
    return np.where(small, near, far)


_I0_A = np.array(_cephes._i0A, np.float32)   # Cephes' i0 coefficients, as NumPy's i0 holds them
_I0_B = np.array(_cephes._i0B, np.float32)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None,
                  pin_memory=False, requires_grad=False):
    def values(n, dt):
        if dt.np == np.float32:   # PyTorch's kernel: i0(beta * sqrt(|1 - ((k - alpha) / alpha)^2|)) / i0(beta)
            alpha, b = np.float32((n - 1) / 2.0), np.float32(beta)
            r = (np.arange(n, dtype=np.float32) - alpha) / alpha
            return _i0_32(b * np.sqrt(np.abs(fma32(-r, r, np.ones_like(r))))) / _i0_32(np.array([b]))
        alpha = (n - 1) / 2.0
        r = (np.arange(n, dtype=np.float64) - alpha) / alpha
        return np.i0(beta * np.sqrt(np.abs(1 - r * r))) / np.i0(beta)
    return _make_window("kaiser_window", window_length, periodic, dtype, requires_grad, values)


for _window in (hamming_window, hann_window, blackman_window, bartlett_window, kaiser_window):
    declare(_window.__name__, _window, method=False, rules=[])


# ------------------------------------------------------------------ nextafter
@rule("NextafterBackward0", ("self", "other"), ("grad", "zeros_like(other)"), ctx=("self_meta", "other_meta"))
def NextafterBackward0(grad, xp, self_meta, other_meta):
    return (None if self_meta is None else xp.cast(xp.sum_to(grad, self_meta[0]), self_meta[1]),
            None if other_meta is None else xp.zeros(other_meta[0], xp.cast(grad, other_meta[1])))


def nextafter(self, other):
    if type(other) is not Tensor:
        raise TypeError(f"nextafter(): argument 'other' (position 1) must be Tensor, not {pytype(other)}")
    dt = D.result_type((self, other))
    if not dt.is_floating_point:
        raise NotImplementedError(f'"nextafter_cpu" not implemented for \'{legacy_scalar(dt)}\'')
    out = np.nextafter(self._a.astype(dt.np), other._a.astype(dt.np))
    metas = tuple((t._a.shape, t.dtype) if t.requires_grad else None for t in (self, other))
    return result(out, NextafterBackward0, (self, other), (), metas)


def _torch_nextafter(input, other, *, out=None):
    if type(other) is not Tensor:
        raise TypeError(f"nextafter(): argument 'other' (position 2) must be Tensor, not {pytype(other)}")
    return nextafter(as_tensor(input), other)


declare("nextafter", nextafter, rules=[NextafterBackward0], torch_forward=_torch_nextafter,
        inplace=binary_inplace(nextafter))


# ------------------------------------------------------------------ unsafe_split / unsafe_chunk
UnsafeSplitBackward0 = rule("UnsafeSplitBackward0", ("self",), ("cat(grads, dim)",), ctx=("shape", "dim", "sizes"),
                            multi=True)(_split_backward)
UnsafeSplitWithSizesBackward0 = rule("UnsafeSplitWithSizesBackward0", ("self",), ("cat(grads, dim)",),
                                     ctx=("shape", "dim", "sizes"), multi=True)(_split_backward)


def _unsafe(self, parts, spec, dim):
    """Outputs that share self's memory but are not views to autograd (PyTorch's unsafe_split)."""
    outs = [_new(np.asarray(p)) for p in parts]
    if GRAD[0] and self.requires_grad:
        node = Node(spec, (edge_of(self),), (), (self._a.shape, dim, [p.shape[dim] for p in parts]))
        node.n_out = len(parts)
        for i, o in enumerate(outs):
            o._fn, o._onr = node, i
    return tuple(outs)


def unsafe_split(self, split_size, dim=0):
    if type(split_size) is not int:
        raise TypeError(f"unsafe_split(): argument 'split_size' (position 1) must be int, not {pytype(split_size)}")
    d = wrap_dim(dim, self._a.ndim)
    parts = self.detach().split(split_size, d)
    return _unsafe(self, [p._a for p in parts], UnsafeSplitBackward0, d)


def unsafe_split_with_sizes(self, split_sizes, dim=0):
    d = wrap_dim(dim, self._a.ndim)
    parts = self.detach().split(list(split_sizes), d)
    return _unsafe(self, [p._a for p in parts], UnsafeSplitWithSizesBackward0, d)


def unsafe_chunk(self, chunks, dim=0):
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    d = wrap_dim(dim, self._a.ndim)
    return unsafe_split(self, -(-self._a.shape[d] // chunks), d)


declare("unsafe_split", unsafe_split, returns_tensor=False, rules=[UnsafeSplitBackward0, UnsafeSplitWithSizesBackward0])
declare("unsafe_split_with_sizes", unsafe_split_with_sizes, returns_tensor=False, rules=[UnsafeSplitWithSizesBackward0])
declare("unsafe_chunk", unsafe_chunk, returns_tensor=False, rules=[UnsafeSplitBackward0])


# ------------------------------------------------------------------ Tensor.bernoulli
@rule("BernoulliBackward0", ("self",), ("zeros_like(grad)",))
def BernoulliBackward0(grad, xp):
    return (xp.zeros_like(grad),)


def bernoulli_method(self, p=None, *, generator=None):
    """x.bernoulli(): draws with x's values as probabilities; x.bernoulli(p): with the number p,
    in x's shape and dtype. A float p records no differentiable node (PyTorch's NotImplemented)."""
    if p is None:
        return result(creation.bernoulli(self, None, generator)._a, BernoulliBackward0, (self,))
    out = creation._gen(generator).bernoulli(float(p), self._a.shape, self._a.dtype).astype(self._a.dtype)
    return result(out, NotImplemented_, (self, None), (), "aten::bernoulli")


declare("bernoulli", bernoulli_method, function=False, rules=[BernoulliBackward0, NotImplemented_])


# ------------------------------------------------------------------ method forms of torch functions
@rule("MvlgammaBackward0", ("self",), ("grad * (self.unsqueeze(-1) + arange(-p/2 + 0.5, 0.5, 0.5)).digamma().sum(-1)",),
      saved=("self",), ctx=("p",))
def MvlgammaBackward0(grad, xp, self, p):
    x = xp.raw(self)
    offsets = np.arange(-p / 2 + 0.5, 0.5, 0.5).astype(x.dtype)    # PyTorch's mvlgamma_backward
    if xp.tensors:
        return (grad * (self.unsqueeze(-1) + _new(offsets)).digamma().sum(-1),)
    return (grad * _new(x[..., None] + offsets).digamma().sum(-1)._a,)


def mvlgamma(self, p):
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    a = self._a if self._a.dtype.kind in "fV" else self._a.astype(D.DEFAULT_FLOAT[0].np)
    out = special._mvlgamma(_new(a), p)._a
    return result(out, MvlgammaBackward0, (self,), (self,), p)


def polygamma(self, n):
    return special._polygamma(n, self)


declare("mvlgamma", mvlgamma, rules=[MvlgammaBackward0], inplace=unary_inplace(mvlgamma, floating=True))
declare("polygamma", polygamma, function=False, rules=[special.PolygammaBackward0],
        inplace=unary_inplace(polygamma, floating=True))


def _at_least_2d(self, name):
    if self._a.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")


def _qr_method(self, some=True):
    warn("UserWarning", "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
         "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\nQ, R = "
         "torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some else 'complete') "
         "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:2505.)")
    _at_least_2d(self, "linalg.qr")
    return linalg_ext.EXTRA_TORCH["qr"](self, some)


def _logdet_method(self):
    _at_least_2d(self, "logdet")
    n, m = self._a.shape[-2:]
    if n != m:
        raise RuntimeError(f"logdet: A must be batches of square matrices, but they are {n} by {m} matrices")
    return linalg_ext.logdet(self)


def _pinverse_method(self, rcond=1e-15):
    if self._a.ndim < 2:
        shape = shape_list(self._a.shape).replace(", ", ",")
        raise RuntimeError(f"linalg.pinv({legacy_scalar(self.dtype)}{{{shape}}}):"
                           " expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types")
    return linalg_ext.pinv(self, rtol=rcond)


declare("qr", _qr_method, function=False, returns_tensor=False, rules=[])
declare("logdet", _logdet_method, function=False, rules=[])
declare("slogdet", lambda self: returns("slogdet", ("sign", "logabsdet"))(tuple(linalg_ext.slogdet(self))),
        function=False, returns_tensor=False, rules=[])
declare("pinverse", _pinverse_method, function=False, rules=[])


# ------------------------------------------------------------------ removed in PyTorch 1.9 / 2.x
_REMOVED = "This function was deprecated since version 1.9 and is now removed. "
_REMOVED_TEXT = {
    "solve": _REMOVED + "`torch.solve` is deprecated in favor of `torch.linalg.solve`. `torch.linalg.solve` has its "
    "arguments reversed and does not return the LU factorization.\n\nTo get the LU factorization see `torch.lu`, which "
    "can be used with `torch.lu_solve` or `torch.lu_unpack`.\nX = torch.solve(B, A).solution should be replaced "
    "with:\nX = torch.linalg.solve(A, B)",
    "lstsq": _REMOVED + "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n`torch.linalg.lstsq` has "
    "reversed arguments and does not return the QR decomposition in the returned tuple (although it returns other "
    "information about the problem).\n\nTo get the QR decomposition consider using `torch.linalg.qr`.\n\nThe returned "
    "solution in `torch.lstsq` stored the residuals of the solution in the last m - n columns of the returned value "
    "whenever m > n. In torch.linalg.lstsq, the residuals are in the field 'residuals' of the returned named tuple.\n\n"
    "The unpacking of the solution, as in\nX, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced "
    "with:\nX = torch.linalg.lstsq(A, B).solution",
    "eig": _REMOVED + "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real "
    "tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\nL_complex = "
    "torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be replaced with:\nL_complex, "
    "V_complex = torch.linalg.eig(A)",
    "symeig": _REMOVED + "The default behavior has changed from using the upper triangular portion of the matrix by "
    "default to using the lower triangular portion.\n\nL, _ = torch.symeig(A, upper=upper) should be replaced "
    "with:\nL = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\nand\n\nL, V = torch.symeig(A, "
    "eigenvectors=True) should be replaced with:\nL, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')",
    "matrix_rank": _REMOVED.rstrip() + "\nPlease use the `torch.linalg.matrix_rank` function instead. The parameter "
    "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.",
}


def _removed(name):
    def removed(*args, **kwargs):
        raise RuntimeError(_REMOVED_TEXT[name])
    removed.__name__ = removed.__qualname__ = name
    return removed


for _name in _REMOVED_TEXT:
    declare(_name, _removed(_name), method=_name != "matrix_rank", rules=[], returns_tensor=False)


# ------------------------------------------------------------------ storage and autograd queries
@declare("output_nr", function=False, rules=[], returns_tensor=False, attribute=True)
def output_nr(self):
    return self._onr if self._fn is not None else 0


@declare("is_pinned", function=False, rules=[], returns_tensor=False)
def is_pinned(self, device=None):
    return False


@declare("pin_memory", function=False, rules=[], returns_tensor=False)
def pin_memory(self, device=None):
    raise RuntimeError("Cannot access accelerator device when none is available.")


@declare("is_shared", function=False, rules=[], returns_tensor=False)
def is_shared(self):
    return False


@declare("share_memory_", function=False, rules=[])
def share_memory_(self):
    return self


# ------------------------------------------------------------------ the torch namespace's flags
def _get_device(input):
    if type(input) is not Tensor:
        raise TypeError(f"get_device(): argument 'input' (position 1) must be Tensor, not {pytype(input)}")
    return -1


WARN_ALWAYS = [False]


def set_warn_always(b):
    WARN_ALWAYS[0] = bool(b)


def _zero_(input):
    return input.zero_()


def _fill_(input, value):
    return input.fill_(value)


EXTRA_TORCH = {
    "has_lapack": True, "has_mkl": True, "has_openmp": True, "has_spectral": True,
    "newaxis": None,
    "legacy_contiguous_format": MEMORY_FORMATS["contiguous_format"],
    "get_device": _get_device,
    "set_warn_always": set_warn_always,
    "is_warn_always_enabled": lambda: WARN_ALWAYS[0],
    "zero_": _zero_,
    "fill_": _fill_,
    "index_put_": lambda input, indices, values, accumulate=False: input.index_put_(indices, values, accumulate),
    "detach_": lambda input: input.detach_(),
    "resize_as_": lambda input, the_template, *, memory_format=None: input.resize_as_(the_template),
    "addmv_": lambda input, mat, vec, *, beta=1, alpha=1: input.addmv_(mat, vec, beta=beta, alpha=alpha),
    "ldexp_": lambda input, other: input.ldexp_(other),
    "compiled_with_cxx11_abi": lambda: True,
    "init_num_threads": lambda: None,
    "selu_": lambda input: nn_ops.FUNCTIONAL_INPLACE["selu_"](input),
    "celu_": lambda input, alpha=1.0: nn_ops.FUNCTIONAL_INPLACE["celu_"](input, alpha),
}


# ------------------------------------------------------------------ nonzero_static, strided empties
def nonzero_static(self, *, size, fill_value=-1):
    """nonzero()'s rows, cut or padded with fill_value to `size` rows."""
    if type(size) is not int or size < 0:
        raise RuntimeError(f"nonzero_static: 'size' must be an non-negative integer, but got size = {size}")
    idx = self.nonzero()._a
    out = np.full((size, self._a.ndim), fill_value, np.int64)
    n = min(size, idx.shape[0])
    out[:n] = idx[:n]
    return _new(out)


declare("nonzero_static", nonzero_static, rules=[])


def _strided(size, stride, dtype, requires_grad):
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape")
    dt = D.DEFAULT_FLOAT[0] if dtype is None else dtype
    extent = 1 + sum((n - 1) * s for n, s in zip(size, stride)) if all(size) else 0
    storage = np.zeros(extent, dt.np)
    arr = np.lib.stride_tricks.as_strided(storage, size, tuple(s * storage.itemsize for s in stride))
    t = _new(arr)
    if requires_grad:
        t.requires_grad_(True)
    return t


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    return _strided(size, stride, dtype, requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False):
    """A tensor of `size` whose dims lie in memory in the order physical_layout gives."""
    size, order = tuple(size), tuple(physical_layout)
    if sorted(order) != list(range(len(size))):
        raise RuntimeError(f"Dimension order {list(order)} is not a permutation of 0..{len(size) - 1}")
    stride, step = [0] * len(size), 1
    for d in reversed(order):
        stride[d] = step
        step *= max(size[d], 1)
    return _strided(size, stride, dtype, requires_grad)


def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                      pin_memory=False):
    return _strided(size, stride, self.dtype if dtype is None else dtype, requires_grad)


declare("empty_strided", empty_strided, method=False, rules=[])
declare("empty_permuted", empty_permuted, method=False, rules=[])
declare("new_empty_strided", new_empty_strided, function=False, rules=[])


# ------------------------------------------------------------------ ATen's torch.* forms of nn functions
_REDUCTION_NAMES = {0: "none", 1: "mean", 2: "sum"}   # at::Reduction, as torch.* takes it


def _reduce(loss, reduction):
    mode = _REDUCTION_NAMES[reduction]
    return loss.mean() if mode == "mean" else loss.sum() if mode == "sum" else loss


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1):
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, reduction=1):
    zeros = _new(np.zeros_like(input._a))
    margin_clamp = (margin - input).clamp_min(0)
    return _reduce(margin_clamp.where(target != 1, zeros) + input.where(target != -1, zeros), reduction)


def _torch_bce_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    return nn_ops.binary_cross_entropy_with_logits(input, target, weight, reduction=_REDUCTION_NAMES[reduction],
                                                   pos_weight=pos_weight)


for _fn in (margin_ranking_loss, hinge_embedding_loss):
    declare(_fn.__name__, _fn, method=False, rules=[])
declare("torch_binary_cross_entropy_with_logits", _torch_bce_with_logits, method=False,
        function="binary_cross_entropy_with_logits", rules=[])


def constant_pad_nd(input, pad, value=0):
    return nn_ops.pad(input, tuple(pad), "constant", value)


declare("constant_pad_nd", constant_pad_nd, method=False, rules=[])


def _cell_gates(input, hx, w_ih, w_hh, b_ih, b_hh):
    """ATen's RNN cells (RNN.cpp): linear(hx, w_hh, b_hh) + linear(input, w_ih, b_ih)."""
    return nn_ops.linear(hx, w_hh, b_hh) + nn_ops.linear(input, w_ih, b_ih)


def rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _cell_gates(input, hx, w_ih, w_hh, b_ih, b_hh).tanh()


def rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    return _cell_gates(input, hx, w_ih, w_hh, b_ih, b_hh).relu()


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    if type(hx) not in (tuple, list):
        raise TypeError(f"lstm_cell(): argument 'hx' (position 2) must be tuple of Tensors, not {pytype(hx)}")
    h, c = hx
    ingate, forgetgate, cellgate, outgate = _cell_gates(input, h, w_ih, w_hh, b_ih, b_hh).chunk(4, 1)
    ingate, forgetgate = ingate.sigmoid(), forgetgate.sigmoid()
    cellgate, outgate = cellgate.tanh(), outgate.sigmoid()
    cy = forgetgate * c + ingate * cellgate
    return outgate * cy.tanh(), cy


def gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    gi = nn_ops.linear(input, w_ih, b_ih).chunk(3, 1)
    gh = nn_ops.linear(hx, w_hh, b_hh).chunk(3, 1)
    r = (gh[0] + gi[0]).sigmoid()
    z = (gh[1] + gi[1]).sigmoid()
    n = (gi[2] + gh[2] * r).tanh()
    return (hx - n) * z + n


for _fn in (rnn_tanh_cell, rnn_relu_cell, gru_cell):
    declare(_fn.__name__, _fn, method=False, rules=[])
declare("lstm_cell", lstm_cell, method=False, returns_tensor=False, rules=[])


# ------------------------------------------------------------------ deprecated norms
def frobenius_norm(input, dim, keepdim=False):
    warn("UserWarning", "at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be "
         "removed in a future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` instead "
         "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:3175.)")
    dims = (dim,) if type(dim) is int else tuple(dim)
    if len(dims) != 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dims)} dimensions instead.")
    return reduce_ops.vector_norm(input, 2, dims, keepdim, reduce_ops.NormBackward1)


declare("frobenius_norm", frobenius_norm, method=False, rules=[reduce_ops.NormBackward1])


def torch_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    """torch.batch_norm: ATen's argument order for F.batch_norm."""
    return nn_ops.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


declare("torch_batch_norm", torch_batch_norm, method=False, function="batch_norm",
        rules=[nn_ops.NativeBatchNormBackward0])


# ------------------------------------------------------------------ renorm
def _renorm_norm(self, p, dims, spec):
    return reduce_ops.vector_norm(self, p, dims, True, spec)


@rule("RenormBackward0", ("self",), ("renorm_backward(grad, self, p, dim, maxnorm)",), saved=("self",),
      ctx=("p", "dims", "maxnorm"))
def RenormBackward0(grad, xp, self, p, dims, maxnorm):
    """PyTorch's renorm_backward: where(norm > maxnorm, factor * grad - factor / (norm + 1e-7) * d norm, grad)."""
    if xp.tensors:
        norm = _renorm_norm(self, p, dims, reduce_ops.LinalgVectorNormBackward0)
    else:
        norm = _renorm_norm(_new(self), p, dims, reduce_ops.LinalgVectorNormBackward0)._a
    grad_output = xp.sum(self * grad, dims, True)
    nb = reduce_ops.LinalgVectorNormBackward0.fn(grad_output, xp, self, norm, dims, True, p)[0]
    invnorm = 1 / (norm + 1e-7)
    factor = invnorm * maxnorm
    return (xp.where(xp.raw(norm) > maxnorm, factor * grad - (factor * invnorm) * nb, grad),)


def renorm(self, p, dim, maxnorm):
    x = self._a
    d = wrap_dim(dim, x.ndim)
    if x.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {x.ndim} dimensions")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm}")
    dims = tuple(k for k in range(x.ndim) if k != d)
    norm = _renorm_norm(_new(x), p, dims, reduce_ops.LinalgVectorNormBackward0)._a
    one, m = x.dtype.type(1), x.dtype.type(maxnorm)
    factor = np.where(norm > m, m / (norm + x.dtype.type(1e-7)), one).astype(x.dtype)
    return result(x * factor, RenormBackward0, (self,), (self,), (p, dims, maxnorm))


declare("renorm", renorm, rules=[RenormBackward0], inplace=unary_inplace(renorm))


# ------------------------------------------------------------------ poisson
def _draw_unit(g):
    """One uniform_real_distribution<double>(0, 1) draw of PyTorch's CPU generator."""
    return float(g._unit(1, np.float64)[0])


def _sample_poisson(lam, g):
    """ATen's sample_poisson (Distributions.cpp): Hoermann's transformed rejection for
    lambda >= 10, the product of uniforms below."""
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            u = _draw_unit(g) - 0.5
            v = _draw_unit(g)
            us = 0.5 - abs(u)
            k = math.floor((2 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= -lam + k * loglam - math.lgamma(k + 1):
                return k
    if lam == 0:
        return 0
    enlam, x, prod = math.exp(-lam), 0, 1.0
    while True:
        prod *= _draw_unit(g)
        if prod > enlam:
            x += 1
        else:
            return x


@rule("PoissonBackward0", ("self",), ("zeros_like(self)",))
def PoissonBackward0(grad, xp):
    return (xp.zeros_like(grad),)


def poisson(input, generator=None):
    a = input._a
    if a.dtype.kind not in "fV":
        raise NotImplementedError(f'"poisson_cpu" not implemented for \'{legacy_scalar(input.dtype)}\'')
    rates = a.astype(np.float64).ravel().tolist()
    if any(r < 0 for r in rates):   # (PyTorch checks each rate as it draws: the same first failure)
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    g = creation._gen(generator)
    out = np.array([_sample_poisson(r, g) for r in rates], np.float64).reshape(a.shape).astype(a.dtype)
    return result(out, PoissonBackward0, (input,))


declare("poisson", poisson, method=False, rules=[PoissonBackward0])


# ------------------------------------------------------------------ geometric_, layout queries
@declare("geometric_", function=False, rules=[])
def geometric_(self, p, *, generator=None):
    """ATen's geometric kernel: ceil(log(u) / log1p(-p)) for each uniform double u, in order."""
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p:g}")
    check_leaf_inplace(self)
    a = self._a
    u = creation._gen(generator)._unit(a.size, np.float64)
    with np.errstate(divide="ignore"):
        values = np.ceil(np.log(u) / math.log1p(-p))
    a[...] = values.reshape(a.shape).astype(a.dtype)
    self._ver[0] += 1
    return self


@declare("dim_order", function=False, rules=[], returns_tensor=False)
def dim_order(self, *, ambiguity_check=False):
    """The dims from the outermost in memory to the innermost (by stride, ties in dim order)."""
    st = meta.strides(self)
    return tuple(sorted(range(self._a.ndim), key=lambda d: -st[d]))


@declare("is_set_to", function=False, rules=[], returns_tensor=False)
def is_set_to(self, tensor):
    a, b = self._a, tensor._a
    return (a.__array_interface__["data"][0] == b.__array_interface__["data"][0] and a.shape == b.shape
            and a.strides == b.strides and a.dtype == b.dtype and np.shares_memory(a, b))


@declare("is_maia", function=False, rules=[], returns_tensor=False, attribute=True)
def is_maia(self):
    return False


@declare("grad_dtype", function=False, rules=[], returns_tensor=False, attribute=True)
def grad_dtype(self):
    return self.dtype


# ------------------------------------------------------------------ gradient
def _sl(t, d, start, end=None):
    return t[(slice(None),) * d + (slice(start, end),)]


def _gradient_uniform(t, d, h, edge_order):
    """ATen's gradient_helper_float: central differences inside, one-sided at the edges."""
    center = (_sl(t, d, 2) - _sl(t, d, 0, -2)) / h
    if edge_order == 1:
        prepend = (_sl(t, d, 1, 2) - _sl(t, d, 0, 1)) / h
        append = (_sl(t, d, -1) - _sl(t, d, -2, -1)) / h
    else:
        prepend = (-1.5 * _sl(t, d, 0, 1) + 2 * _sl(t, d, 1, 2) - 0.5 * _sl(t, d, 2, 3)) / h
        append = (0.5 * _sl(t, d, -3, -2) - 2 * _sl(t, d, -2, -1) + 1.5 * _sl(t, d, -1)) / h
    return _cat((prepend, center / 2, append), d)


def _gradient_coordinates(t, d, coords, edge_order):
    """ATen's gradient_helper: second-order differences on the given coordinates."""
    shape = [1] * t._a.ndim
    shape[d] = -1
    ax_dx = coords.diff(1, 0)
    dx1, dx2 = ax_dx[:-1], ax_dx[1:]
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * _sl(t, d, 0, -2) + b * _sl(t, d, 1, -1) + c * _sl(t, d, 2)
    if edge_order == 1:
        prepend = (_sl(t, d, 1, 2) - _sl(t, d, 0, 1)) / ax_dx[0]
        append = (_sl(t, d, -1) - _sl(t, d, -2, -1)) / ax_dx[-1]
    else:
        a = -(2.0 * ax_dx[0] + ax_dx[1]) / (ax_dx[0] * (ax_dx[0] + ax_dx[1]))
        b = (ax_dx[0] + ax_dx[1]) / (ax_dx[0] * ax_dx[1])
        c = (-ax_dx[0]) / (ax_dx[1] * (ax_dx[0] + ax_dx[1]))
        prepend = a * _sl(t, d, 0, 1) + b * _sl(t, d, 1, 2) + c * _sl(t, d, 2, 3)
        a = ax_dx[-1] / (ax_dx[-2] * (ax_dx[-1] + ax_dx[-2]))
        b = -(ax_dx[-1] + ax_dx[-2]) / (ax_dx[-1] * ax_dx[-2])
        c = (2 * ax_dx[-1] + ax_dx[-2]) / (ax_dx[-1] * (ax_dx[-1] + ax_dx[-2]))
        append = a * _sl(t, d, -3, -2) + b * _sl(t, d, -2, -1) + c * _sl(t, d, -1)
    return _cat((prepend, center, append), d)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """torch.gradient: the derivative estimate along each dim, one tensor per dim."""
    n = input._a.ndim
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = list(range(n)) if dim is None else [dim] if type(dim) is int else list(dim)
    dims = [wrap_dim(d, n) for d in dims]
    if len(set(dims)) != len(dims):
        repeated = next(d for d in dims if dims.count(d) > 1)
        raise RuntimeError(f"dim {repeated} appears multiple times in the list of dims")
    if isinstance(spacing, (list, tuple)):
        if len(spacing) != len(dims):
            if dim is None:
                raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a list of length "
                                   f"equal to 'self.dim() = {n}', since dim argument was not given, but got a list "
                                   f"of length {len(spacing)}")
            raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                               f"arguments to have the same length, but got a spacing argument of length "
                               f"{len(spacing)} and a dim argument of length {len(dims)}.")
        steps = list(spacing)
    else:
        steps = [spacing] * len(dims)
    if any(input._a.shape[d] < edge_order + 1 for d in dims):
        raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    out = []
    for d, h in zip(dims, steps):
        if type(h) is Tensor:
            out.append(_gradient_coordinates(input, d, h, edge_order))
        else:
            out.append(_gradient_uniform(input, d, h, edge_order))
    return tuple(out)


declare("gradient", gradient, method=False, returns_tensor=False, rules=[])


# ------------------------------------------------------------------ binomial
# ATen's _s_binomial_cpu (Distributions.cpp, sample_binomial of Distributions.h): one element
# after another (a serial TensorIterator loop) drawing uniform_real_distribution<double>(0, 1)
# from the generator; BTRS (Hormann's transformed rejection) when count * prob >= 10, the sum of
# geometric waiting times below. scalar_t arithmetic in the tensor's dtype (float32: each
# operation rounded to float32; std::log1p(float) is libm's log1pf), accscalar_t in double.
_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k):
    if k < 10:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _log(x):
    return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)


def _binomial_inversion(count, prob, f, log1p, g):
    logprob = log1p(f(-prob))
    geom_sum, num_geom = 0.0, 0.0
    while True:
        geom = math.ceil(_log(_draw_unit(g)) / logprob)
        geom_sum += geom
        if geom_sum > count:
            return num_geom
        num_geom = f(num_geom + 1)


def _btrs(count, prob, f, g):
    stddev = f(math.sqrt(f(f(count * prob) * f(1 - prob))))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = f(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = f(prob / f(1 - prob))
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor(f(f(count + 1) * prob))
    while True:
        u = _draw_unit(g) - 0.5
        v = _draw_unit(g)
        us = 0.5 - abs(u)
        k = f(math.floor((2 * a / us + b) * u + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = _log(v * alpha / (a / (us * us) + b))
        cmk1 = f(f(count - k) + 1)
        upper = ((m + 0.5) * _log((m + 1) / (r * (count - m + 1)))
                 + f(count + 1) * _log((count - m + 1) / cmk1)
                 + (k + 0.5) * _log(r * cmk1 / f(k + 1))
                 + _stirling_tail(m) + _stirling_tail(count - m)
                 - _stirling_tail(k) - _stirling_tail(f(count - k)))
        if v <= upper:
            return k


def _sample_binomial(count, prob, f, log1p, g):
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if f(count * prob) >= 10.0:
            return _btrs(count, prob, f, g)
        return _binomial_inversion(count, prob, f, log1p, g)
    if prob > 0.5:
        q = f(1.0 - prob)
        if f(count * q) >= 10.0:
            return f(count - _btrs(count, q, f, g))
        return f(count - _binomial_inversion(count, q, f, log1p, g))
    return math.nan


def _log1pf():
    lib = _libm()
    if lib:
        return lambda x: float(lib.log1pf(x))
    return lambda x: float(np.float32(math.log1p(x)))


@rule("NotImplemented", ("self",), ("not implemented",), ctx=("op",), key="NotImplemented binomial")
def BinomialNotImplemented(grad, xp, op):
    raise RuntimeError(f"derivative for {op} is not implemented")


def binomial(count, prob, generator=None):
    for name, t in (("count", count), ("prob", prob)):
        if not isinstance(t, Tensor):
            raise TypeError(f"binomial(): argument '{name}' (position {1 if name == 'count' else 2}) must be "
                            f"Tensor, not {type(t).__name__}")
    for name, t in (("count", count), ("prob", prob)):
        if not t.dtype.is_floating_point:
            raise ValueError(f"binomial only supports floating-point dtypes for {name}, got: {legacy_scalar(t.dtype)}")
    if prob.dtype is not count.dtype:
        raise RuntimeError(f"Found dtype {legacy_scalar(prob.dtype)} but expected {legacy_scalar(count.dtype)}")
    if count.dtype.name not in ("float32", "float64"):
        raise NotImplementedError(f'"binomial_cpu" not implemented for \'{legacy_scalar(count.dtype)}\'')
    shape = broadcast_shape(count._a.shape, prob._a.shape)
    counts = np.broadcast_to(count._a, shape).astype(np.float64).ravel().tolist()
    probs = np.broadcast_to(prob._a, shape).astype(np.float64).ravel().tolist()
    for c, p in zip(counts, probs):     # PyTorch's sampler never returns for these: refuse first
        if not math.isfinite(c) and 0 < p < 1:
            raise RuntimeError(msg("binomial.endless", "en"))
    g = creation._gen(generator)
    if count.dtype.name == "float32":
        f, log1p = (lambda x: float(np.float32(x))), _log1pf()
    else:
        f, log1p = float, math.log1p
    out = np.array([_sample_binomial(c, p, f, log1p, g) for c, p in zip(counts, probs)],
                   np.float64).reshape(shape).astype(count._a.dtype)
    needing = tuple(t for t in (count, prob) if t.requires_grad)
    if len(needing) == 2:
        return result(out, NotImplemented_, needing, (), "aten::binomial")
    if needing:
        return result(out, BinomialNotImplemented, needing, (), "aten::binomial")
    return _new(out)


declare("binomial", binomial, method=False, rules=[BinomialNotImplemented])
