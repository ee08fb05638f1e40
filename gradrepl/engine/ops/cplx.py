"""Complex tensors (complex64 / complex128): their own ops, the complex versions of real ops,
and the fence around every op that has none.

A complex tensor is a NumPy complex array. `real`/`imag`/`view_as_real`/`view_as_complex`
are views of the same memory (writes go through, as in PyTorch). `conj()` is PyTorch's lazy
conjugate view: here it is a conjugated copy that answers `is_conj()` (a later write to the
input is not seen through it).

Gradients follow PyTorch's convention (the conjugate Wirtinger derivative): a holomorphic
f's backward is grad * conj(f'(z)). The ops of COMPLEX below are the ones complex tensors
may reach; ops/__init__.py routes a call with a complex tensor argument to the entry here
(PASS: the op's own forward, dtype-agnostic), and refuses every other op with PyTorch's
message where it is known (FENCED) or gradrepl's.
"""
import weakref

import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import GRAD
from gradrepl.engine.rounding import fma32, fma64
from gradrepl.engine.summation import GRAIN, _chunk_sum
from gradrepl.engine.ops.common import result, view
from gradrepl.engine.ops.registry import RESULT as RESULT_, declare, rule
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import broadcast_shape, legacy_scalar, pytype
from gradrepl.messages import msg

# PyTorch's warning when complex values go into a real tensor (to(), copy_())
COMPLEX_TO_REAL = ("Casting complex values to real discards the imaginary part (Triggered internally at "
                   "/__w/pytorch/pytorch/aten/src/ATen/native/Copy.cpp:307.)")

# Tensors made by conj() of a complex tensor (is_conj() is True), by id.
CONJ = {}


def _mark_conj(t):
    key = id(t)
    CONJ[key] = weakref.ref(t, lambda _r: CONJ.pop(key, None))
    return t


def is_conj_tensor(t):
    ref = CONJ.get(id(t))
    return ref is not None and ref() is t


def _complex_dt(arr):
    return np.complex128 if arr.dtype == np.float64 else np.complex64


# ------------------------------------------------------------------ view_as_real / view_as_complex
def _as_complex_array(g):
    """view_as_complex of an array of shape (..., 2) (contiguous copy when needed)."""
    g = np.ascontiguousarray(g)
    return g.view(_complex_dt(g)).reshape(g.shape[:-1])


@rule("ViewAsRealBackward0", ("self",), ("at::view_as_complex(grad.contiguous())",))
def ViewAsRealBackward0(grad, xp):
    if xp.tensors:
        return (view_as_complex(grad.contiguous()),)
    return (_as_complex_array(grad),)


def _real_view_array(a):
    """The float array (..., 2) over a complex array's memory."""
    half = a.itemsize // 2
    return np.lib.stride_tricks.as_strided(a.real, shape=a.shape + (2,), strides=a.strides + (half,),
                                           writeable=a.flags.writeable)


def view_as_real(self):
    if type(self) is not Tensor:
        raise TypeError(f"view_as_real(): argument 'input' (position 1) must be Tensor, not {pytype(self)}")
    if not self.dtype.is_complex:
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if is_conj_tensor(self):
        raise RuntimeError("view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate "
                           "tensor so you can view it as real, use self.resolve_conj()")
    return view(self, _real_view_array(self._a), ViewAsRealBackward0, None)


@rule("ViewAsComplexBackward0", ("self",), ("at::view_as_real(grad.contiguous().resolve_conj())",))
def ViewAsComplexBackward0(grad, xp):
    if xp.tensors:
        return (view_as_real(grad.contiguous()),)
    return (_real_view_array(np.ascontiguousarray(grad)).copy(),)


def view_as_complex(self):
    if type(self) is not Tensor:
        raise TypeError(f"view_as_complex(): argument 'input' (position 1) must be Tensor, not {pytype(self)}")
    a = self._a
    if a.dtype not in (np.float32, np.float64):
        kind = "Half" if a.dtype == np.float16 else legacy_scalar(self.dtype)
        if a.dtype == np.float16:
            raise RuntimeError(msg("complex.chalf", "en", name="view_as_complex"))
        raise RuntimeError("view_as_complex is only supported for half, float and double tensors, but got a tensor "
                           f"of scalar type: {kind}")
    if a.ndim == 0 or a.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if a.strides[-1] != a.itemsize:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    for s in a.strides[:-1]:
        if s % (2 * a.itemsize):
            raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    first = a[(0,) * (a.ndim - 1)] if a.size else np.zeros(2, a.dtype)   # the first pair: 2 adjacent floats
    out = np.lib.stride_tricks.as_strided(first.view(_complex_dt(a)), shape=a.shape[:-1], strides=a.strides[:-1],
                                          writeable=a.flags.writeable)
    return view(self, out, ViewAsComplexBackward0, None)


declare("view_as_real", view_as_real, method=False, rules=[ViewAsRealBackward0])
declare("view_as_complex", view_as_complex, method=False, rules=[ViewAsComplexBackward0])


# ------------------------------------------------------------------ real, imag
def real(self):
    if not self.dtype.is_complex:
        return self
    return view_as_real(self.resolve_conj() if is_conj_tensor(self) else self).select(-1, 0)


def imag(self):
    if not self.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return view_as_real(self.resolve_conj() if is_conj_tensor(self) else self).select(-1, 1)


def _torch_real(input):
    return real(_tensor_arg(input, "real"))


def _torch_imag(input):
    return imag(_tensor_arg(input, "imag"))


def _tensor_arg(x, name, position=1, arg="input"):
    if type(x) is not Tensor:
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {pytype(x)}")
    return x


declare("real", real, attribute=True, rules=[], torch_forward=_torch_real)
declare("imag", imag, attribute=True, rules=[], torch_forward=_torch_imag)


# ------------------------------------------------------------------ conj
@rule("ConjBackward0", ("self",), ("grad.conj()",))
def ConjBackward0(grad, xp):
    return (xp.conj(grad),)


@rule("ConjPhysicalBackward0", ("self",), ("grad.conj_physical()",))
def ConjPhysicalBackward0(grad, xp):
    return (xp.conj(grad),)


def conj(self):
    if not self.dtype.is_complex:
        return self
    t = result(np.conj(self._a), ConjBackward0, (self,))
    if not is_conj_tensor(self):
        _mark_conj(t)
    return t


def conj_physical(self):
    if not self.dtype.is_complex:
        return result(self._a.copy(), ConjPhysicalBackward0, (self,)) if self.requires_grad else self.clone()
    return result(np.conj(self._a), ConjPhysicalBackward0, (self,))


def is_conj(self):
    return is_conj_tensor(self)


def resolve_conj(self):
    if not is_conj_tensor(self):
        return self
    return self.clone()      # PyTorch: a materialised copy (CloneBackward0)


declare("conj", conj, rules=[ConjBackward0])
declare("conj_physical", conj_physical, rules=[ConjPhysicalBackward0])
declare("is_conj", is_conj, rules=[], returns_tensor=False)


# ------------------------------------------------------------------ torch.complex, torch.polar
@rule("ComplexBackward0", ("real", "imag"), ("at::real(grad)", "at::imag(grad)"), ctx=("shapes",))
def ComplexBackward0(grad, xp, shapes):
    sr, si = shapes
    if xp.tensors:
        re, im = grad.real, grad.imag
    else:
        re, im = np.ascontiguousarray(grad.real), np.ascontiguousarray(grad.imag)
    return (None if sr is None else xp.sum_to(re, sr), None if si is None else xp.sum_to(im, si))


def _two_floats(name, a, b):
    if type(a) is not Tensor:
        raise TypeError(f"{name}(): argument '{'real' if name == 'complex' else 'abs'}' (position 1) must be Tensor, "
                        f"not {pytype(a)}")
    if type(b) is not Tensor:
        raise TypeError(f"{name}(): argument '{'imag' if name == 'complex' else 'angle'}' (position 2) must be "
                        f"Tensor, not {pytype(b)}")
    da, db = a._a.dtype, b._a.dtype
    if da.kind != "f" or db.kind != "f":
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got "
                           f"{legacy_scalar(a.dtype)} and {legacy_scalar(b.dtype)}")
    if da != db:
        raise RuntimeError(f"Expected object of scalar type {legacy_scalar(a.dtype)} but got scalar type "
                           f"{legacy_scalar(b.dtype)} for second argument")
    if da == np.float16:
        raise RuntimeError(msg("complex.chalf", "en", name=f"torch.{name}"))
    broadcast_shape(a._a.shape, b._a.shape)


def _grad_shapes(a, b):
    return (a._a.shape if a.requires_grad else None, b._a.shape if b.requires_grad else None)


def complex_(real, imag, *, out=None):
    _two_floats("complex", real, imag)
    ra, ia = np.broadcast_arrays(real._a, imag._a)
    out = np.empty(ra.shape, _complex_dt(ra))
    out.real, out.imag = ra, ia
    return result(out, ComplexBackward0, (real, imag), (), _grad_shapes(real, imag))


@rule("PolarBackward0", ("abs", "angle"), ("polar_backward(grad, result)", "polar_backward(grad, result)"),
      saved=("result",), ctx=("shapes",))
def PolarBackward0(grad, xp, result, shapes):
    sa, sg = shapes
    # PyTorch's polar_backward: abs gets real(grad.conj() * sgn(result)), angle real(grad.conj() * result * 1j)
    gc = xp.conj(grad)
    ga = (gc * xp.sign(result)).real
    gg = (gc * (result * 1j)).real
    if not xp.tensors:
        ga, gg = np.ascontiguousarray(ga), np.ascontiguousarray(gg)
    return (None if sa is None else xp.sum_to(ga, sa), None if sg is None else xp.sum_to(gg, sg))


def polar(abs, angle, *, out=None):
    _two_floats("polar", abs, angle)
    r, th = np.broadcast_arrays(abs._a, angle._a)
    if r.dtype == np.float32:     # std::polar on floats: cosf/sinf (float64 rounded once), products in float
        c = np.cos(th.astype(np.float64)).astype(np.float32)
        s = np.sin(th.astype(np.float64)).astype(np.float32)
    else:
        c, s = np.cos(th), np.sin(th)
    out = np.empty(r.shape, _complex_dt(r))
    out.real, out.imag = r * c, r * s
    return result(out, PolarBackward0, (abs, angle), (RESULT_,), _grad_shapes(abs, angle))

declare("complex", complex_, method=False, rules=[ComplexBackward0])
declare("polar", polar, method=False, rules=[PolarBackward0])


# ------------------------------------------------------------------ complex versions of real ops
@rule("AngleBackward0", ("self",), ("angle_backward(grad, self)",), saved=("self",), key="AngleBackward0 complex")
def AngleBackward0_complex(grad, xp, self):
    # PyTorch's angle_backward: where(self == 0, 0, grad * self / self.abs().pow(2) * 1j)
    if xp.tensors:
        g = grad * self / self.abs().pow(2) * 1j
        return (g.masked_fill(self == 0, 0),)
    a2 = np.abs(self)
    g = grad * self / (a2 * a2) * np.asarray(1j, self.dtype)
    return (np.where(self == 0, np.zeros((), self.dtype), g),)


def angle_complex(self):
    a = self._a
    out = np.arctan2(a.imag.astype(np.float64), a.real.astype(np.float64)).astype(a.real.dtype) \
        if a.dtype == np.complex64 else np.angle(a)
    return result(out, AngleBackward0_complex, (self,), (self,))


@rule("SgnBackward0", ("self",), ("sgn_backward(self, grad, result)",), saved=("self", "result"),
      key="SgnBackward0 complex")
def SgnBackward0_complex(grad, xp, self, result):
    # PyTorch's sgn_backward: (grad - real(grad * result.conj()) * result) / abs, 0 where self is 0
    a = xp.abs(self)
    g = (grad - (grad * xp.conj(result)).real * result) / a
    if xp.tensors:
        return (g.masked_fill(self == 0, 0),)
    return (np.where(a == 0, np.zeros((), g.dtype), g),)


def sgn_complex(self):
    return result(csgn(self._a), SgnBackward0_complex, (self,), (self, RESULT_))


def item_complex(self):
    if self._a.size != 1:
        raise RuntimeError(f"a Tensor with {self._a.size} elements cannot be converted to Scalar")
    return complex(self._a.reshape(()).item())


# ------------------------------------------------------------------ the fence
def _kernel_message(kernel):
    def message(t):
        return NotImplementedError(f'"{kernel}" not implemented for \'{legacy_scalar(t.dtype)}\'')
    return message


def _fixed(exc, text):
    return lambda t: exc(text)


_CLAMP = _fixed(NotImplementedError, "clamp is not supported for complex types")
FENCED = {
    "lt": _kernel_message("lt_cpu"), "le": _kernel_message("le_cpu"), "gt": _kernel_message("gt_cpu"),
    "ge": _kernel_message("ge_cpu"), "max": _kernel_message("max_all"), "min": _kernel_message("min_all"),
    "argmax": _fixed(RuntimeError, "argmax(): does not support complex input"),
    "argmin": _fixed(RuntimeError, "argmin(): does not support complex input"),
    "relu": _CLAMP, "relu_": _CLAMP, "clamp": _CLAMP, "clamp_min": _CLAMP, "clamp_max": _CLAMP,
    "floor": _fixed(NotImplementedError, "floor is not supported for complex inputs"),
    "ceil": _fixed(NotImplementedError, "ceil is not supported for complex inputs"),
    "trunc": _fixed(NotImplementedError, "trunc is not supported for complex inputs"),
    "sort": _fixed(RuntimeError, " Sort does not support complex dtypes on CPU"),
    "softmax": _kernel_message("softmax_lastdim_kernel_impl"),
    "log_softmax": _kernel_message("log_softmax_lastdim_kernel_impl"),
    "maximum": _fixed(RuntimeError, "maximum not implemented for complex tensors."),
    "minimum": _fixed(RuntimeError, "minimum not implemented for complex tensors."),
    "atan2": _kernel_message("atan2_cpu"),
    "sign": _fixed(NotImplementedError, "Unlike NumPy, torch.sign is not intended to support complex numbers. "
                                        "Please use torch.sgn instead."),
    "remainder": _kernel_message("remainder_cpu"), "floor_divide": _kernel_message("div_floor_cpu"),
    "round": _kernel_message("round_vml_cpu"),
}


def fence_error(name, t):
    """The error an op without a complex version raises for complex tensor t."""
    make = FENCED.get(name)
    if make is not None:
        return make(t)
    return NotImplementedError(msg("complex.unsupported", "en", name=name, dtype=t.dtype))


PASS = object()   # the op's own forward handles complex tensors

# Ops whose own forward is dtype-agnostic or already handles complex arrays.
_PASS_NAMES = (
    # shape and indexing: views and copies of any dtype
    "T cat chunk clone contiguous expand expand_as flatten flip mT permute repeat reshape reshape_as split squeeze "
    "stack t transpose unbind unsqueeze view view_as __getitem__ __setitem__ copy_ fill_ gather index_select narrow "
    "select zero_ detach atleast_1d atleast_2d atleast_3d broadcast_tensors broadcast_to column_stack diag "
    "diag_embed diagflat diagonal dsplit dstack fliplr flipud hsplit hstack movedim ravel repeat_interleave roll "
    "rot90 row_stack split_with_sizes swapdims tensor_split tile tril triu unflatten unfold vsplit vstack "
    "unsafe_chunk unsafe_split unsafe_split_with_sizes take index_fill masked_fill where where_method "
    "new_empty new_full new_ones new_tensor new_zeros "
    # conversions and metadata
    "to type type_as cpu cuda double float half int long short bool byte char bfloat16 get_device "
    "is_complex is_cpu is_inference is_neg is_nonzero is_quantized is_same_size is_signed is_sparse itemsize "
    "layout nbytes data_ptr storage storage_offset stride register_post_accumulate_grad_hook resolve_neg "
    "is_conj conj conj_physical real imag view_as_real view_as_complex complex polar "
    # arithmetic whose forward and rule handle complex
    "add sub mul div neg rsub eq ne equal isnan isfinite isinf isreal abs allclose isclose "
    "exp log log2 log10 sqrt rsqrt reciprocal sin cos tan sinh cosh tanh sigmoid pow expm1 log1p "
    "asin acos atan asinh acosh atanh sum mean prod matmul mm mv dot outer vdot inner kron trace cumsum "
    "count_nonzero nonzero"
).split()

COMPLEX = dict.fromkeys(_PASS_NAMES, PASS)
# Of those, the ones whose real rule is not the complex gradient (it needs conjugates): a complex
# input that requires grad is refused until they have complex rules.
GRAD_FENCED = frozenset("vdot inner kron pow".split())


def grad_fence(name):
    return NotImplementedError(msg("complex.no_grad", "en", name=f"{name}()"))


# in-place versions of PASS ops that PyTorch refuses for complex tensors
INPLACE_FENCED = {"abs": "In-place abs is not supported for complex tensors."}
CONJ_AFTER = object()


def refuse(text):
    raise RuntimeError(text)     # the op's own forward (a transpose), then conj(): H, mH, adjoint


def _forward_only(name, compute):
    """A complex version computed from real ops on the parts, without a gradient of its own yet."""
    def forward(self, *args, **kwargs):
        if GRAD[0] and self.requires_grad:
            raise grad_fence(name)
        return compute(self, *args, **kwargs)
    forward.__name__ = name
    return forward


def _var(self, *args, **kwargs):
    # PyTorch: the variance of a complex tensor is the real parts' plus the imaginary parts'
    return self.real.var(*args, **kwargs) + self.imag.var(*args, **kwargs)


COMPLEX.update({"angle": angle_complex, "sgn": sgn_complex, "resolve_conj": resolve_conj, "item": item_complex,
                "H": CONJ_AFTER, "mH": CONJ_AFTER, "adjoint": CONJ_AFTER,
                "var": _forward_only("var", _var),
                "std": _forward_only("std", lambda self, *a, **k: _var(self, *a, **k).sqrt()),
                "norm": _forward_only("norm", lambda self, *a, **k: self.abs().norm(*a, **k))})


# ------------------------------------------------------------------ pow of complex tensors
def _cpow(x, y):
    """std::pow of complex numbers (glibc's cpow; NumPy's complex power gives its bits)."""
    with np.errstate(all="ignore"):
        return np.power(x, y)


def _check_pow_grad(*ts):
    if GRAD[0] and any(type(t) is Tensor and t.requires_grad for t in ts):
        raise grad_fence("pow")


def pow_complex(a, b, out=None):
    """torch.pow with a complex operand (forward only): PyTorch's special exponents 2, 3, -2, 0.5, -0.5,
    0 and 1, std::pow otherwise."""
    if type(a) is not Tensor:          # torch.pow(number, complex tensor)
        return rpow_complex(b, a)
    _check_pow_grad(a, b)
    if type(b) is Tensor:
        rd = D.result_type((a, b))
        xa, xb = a._a.astype(rd.np, copy=False), b._a.astype(rd.np, copy=False)
        return _new(np.asarray(_cpow(xa, xb)).astype(rd.np))
    if not isinstance(b, (int, float, complex)):
        raise TypeError(f"unsupported operand type(s) for ** or pow(): 'Tensor' and '{pytype(b)}'")
    rd = D.result_type((a, b))
    x = a._a.astype(rd.np, copy=False)
    if b == 0:
        return _new(np.ones_like(x))
    if b == 1:
        return _new(x.copy())
    with np.errstate(all="ignore"):
        one = np.ones((), x.dtype)
        if b == 2:
            out = cmul(x, x, x.dtype)
        elif b == 3:
            out = cmul(cmul(x, x, x.dtype), x, x.dtype)
        elif b == -2:
            out = cdiv(one, cmul(x, x, x.dtype), x.dtype)
        elif b == 0.5:
            out = np.sqrt(x)
        elif b == -0.5:
            out = cdiv(one, np.sqrt(x), x.dtype)
        else:
            out = _cpow(x, np.asarray(complex(b), x.dtype))
    return _new(np.asarray(out).astype(rd.np))


def rpow_complex(a, base):
    """base ** a for a Python number base and a complex tensor a (or a complex base)."""
    _check_pow_grad(a)
    if not isinstance(base, (int, float, complex)):
        raise TypeError(f"unsupported operand type(s) for ** or pow(): '{pytype(base)}' and 'Tensor'")
    rd = D.result_type((a, base))
    x = a._a.astype(rd.np, copy=False)
    return _new(np.asarray(_cpow(np.asarray(complex(base), x.dtype), x)).astype(rd.np))


COMPLEX["pow"] = pow_complex
COMPLEX["square"] = lambda self: pow_complex(self, 2)
DUNDERS = {"__rpow__": rpow_complex}


# ------------------------------------------------------------------ PyTorch's complex arithmetic, bit for bit
def _parts(x, dtype):
    """Real and imaginary parts of an array or Python number, as arrays of the real dtype of `dtype`."""
    real = np.dtype(dtype).type(0).real.dtype
    x = np.asarray(x)
    if x.dtype.kind == "c":
        return x.real.astype(real, copy=False), x.imag.astype(real, copy=False)
    return x.astype(real, copy=False), np.zeros(x.shape, real)


def _join(re, im, dtype):
    re, im = np.broadcast_arrays(re, im)
    out = np.empty(re.shape, dtype)
    out.real, out.imag = re, im
    return out


def cmul(x, y, dtype):
    """c10::complex's product: ac - bd and ad + bc, each product rounded (no fused multiply-add)."""
    a, b = _parts(x, dtype)
    c, d = _parts(y, dtype)
    return _join(a * c - b * d, a * d + b * c, dtype)


def cdiv(x, y, dtype):
    """c10::complex's quotient: NumPy's (Smith's) algorithm as PyTorch's kernels compile it, with
    fused multiply-adds (GCC contracts `c + d * rat` and the like)."""
    a, b = _parts(x, dtype)
    c, d = _parts(y, dtype)
    a, b, c, d = np.broadcast_arrays(a, b, c, d)
    fma = fma32 if a.dtype == np.float32 else fma64
    one = a.dtype.type(1)
    with np.errstate(all="ignore"):
        big = np.abs(c) >= np.abs(d)
        rat = np.where(big, d / c, c / d)
        scl = one / np.where(big, fma(d, rat, c), fma(c, rat, d))
        re = np.where(big, fma(b, rat, a), fma(a, rat, b)) * scl
        im = np.where(big, fma(-a, rat, b), fma(b, rat, -a)) * scl
        zero = (c == 0) & (d == 0)        # a / 0: a / |c| and b / |d| (inf or nan)
        if zero.any():
            re = np.where(zero, a / np.abs(c), re)
            im = np.where(zero, b / np.abs(d), im)
    return _join(re, im, dtype)


def complex_full_sum(arr):
    """The sum of a contiguous complex array as PyTorch's cascade sum adds it: real and imaginary
    parts each as a float sum over vectors of half as many lanes (4 complex64, 2 complex128);
    None elsewhere (then NumPy's order)."""
    if arr.size >= GRAIN or not (arr.ndim <= 1 and (arr.size < 2 or arr.strides[0] == arr.itemsize)
                                 or arr.flags.c_contiguous):
        return None
    flat = arr.reshape(-1)
    lanes = 4 if arr.dtype == np.complex64 else 2
    re = _chunk_sum(np.ascontiguousarray(flat.real), lanes, False)
    im = _chunk_sum(np.ascontiguousarray(flat.imag), lanes, False)
    return _join(np.asarray(re), np.asarray(im), arr.dtype)


def cabs(x):
    """|z| as PyTorch computes it (hypot of the parts)."""
    return np.asarray(np.hypot(x.real, x.imag))


def csgn(x):
    """z / |z| part by part (0 where z is 0), as PyTorch's vectorised sgn."""
    mag = cabs(x)
    with np.errstate(all="ignore"):
        re, im = x.real / mag, x.imag / mag
    zero = mag == 0
    return _join(np.where(zero, 0, re).astype(mag.dtype), np.where(zero, 0, im).astype(mag.dtype), x.dtype)


def _csigmoid(x):
    one = np.ones((), x.dtype)
    with np.errstate(all="ignore"):
        return cdiv(one, np.exp(np.zeros((), x.dtype) - x) + one, x.dtype)


def _part_divided(fn, log_base):
    def kernel(x):
        out = fn(x)
        den = x.real.dtype.type(log_base)
        return _join(out.real / den, out.imag / den, x.dtype)
    return kernel


# PyTorch's own formulas for complex math functions, by the name of their backward node.
KERNELS = {
    "ReciprocalBackward0": lambda x: cdiv(np.ones((), x.dtype), x, x.dtype),
    "RsqrtBackward0": lambda x: cdiv(np.ones((), x.dtype), np.sqrt(x), x.dtype),
    "SigmoidBackward0": _csigmoid,
    "Log10Backward0": _part_divided(np.log, np.log(10.0)),
    "Log2Backward0": _part_divided(np.log, np.log(2.0)),
}
