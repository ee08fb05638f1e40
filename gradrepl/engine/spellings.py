"""The other spellings PyTorch accepts, applied once to the declared ops and the factories:

- NumPy's keyword names `axis=` and `keepdims=` for `dim=` and `keepdim=` (PyTorch's argument
  parser takes them for every op);
- `out=` on every `torch.*` function: the result written into the given tensor (resized
  when its shape differs), which is returned;
- `size=` and `device=` on the factories (only the CPU exists: devices.check);
- the legacy tensor types (`torch.FloatTensor([...])`, `x.type(torch.LongTensor)`);
- `torch.logspace`, the default dtype, `torch.finfo` / `torch.iinfo`, result_type & co.
"""
import builtins
import inspect
import os
import types

import numpy as np

from gradrepl.engine import creation as C
from gradrepl.engine import devices, functional, mkl
from gradrepl.engine import functions as F
from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import GRAD
from gradrepl.engine.printing import set_default_float
from gradrepl.engine.ops import arrange, breadth_torch, linalg_ext, shape, special
from gradrepl.engine.ops.meta import LAYOUT, MEMORY_FORMATS
from gradrepl.engine.summation import THREADS
from gradrepl.engine.ops.registry import REGISTRY
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import legacy_scalar, pytype, warn

_ALIASES = (("axis", "dim"), ("keepdims", "keepdim"))


def _rename(kwargs, name):
    for numpy_name, torch_name in _ALIASES:
        if numpy_name in kwargs:
            if torch_name in kwargs:
                raise TypeError(f"{name}() received an invalid combination of arguments - got both {torch_name} and "
                                f"{numpy_name}")
            kwargs[torch_name] = kwargs.pop(numpy_name)


def _parameters(fn):
    """(positional parameter names, all parameter names) of fn, following __wrapped__ as
    inspect.signature does; read from the code object (inspect.signature of the ~800 torch
    functions cost ~10 ms of every start), falling back to inspect for other callables."""
    while hasattr(fn, "__wrapped__"):   # inspect.unwrap without its cycle bookkeeping
        fn = fn.__wrapped__
    if type(fn) is not types.FunctionType:
        try:
            params = inspect.signature(fn).parameters.values()
        except (TypeError, ValueError):
            return None
        positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        return positional, [p.name for p in params]
    code = fn.__code__
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & inspect.CO_VARARGS) + bool(code.co_flags & inspect.CO_VARKEYWORDS)
    names = code.co_varnames[:count]      # positional, keyword-only, then *args and **kwargs
    return names[:code.co_argcount], names


def _takes_dim(found):
    """Whether parameters found by _parameters include dim/keepdim (numpy's axis=/keepdims= apply)."""
    return found is not None and ("dim" in found[1] or "keepdim" in found[1] or "dims" in found[1])


def _aliased_method(forward, name):
    def method(self, *args, **kwargs):
        if kwargs:
            _rename(kwargs, name)
        return forward(self, *args, **kwargs)
    method.__name__ = method.__qualname__ = name
    method.__wrapped__ = forward
    return method


def write_out(result, out, name):
    """Copy an op's result into `out=` (PyTorch resizes an out of another shape)."""
    if type(result) is tuple:
        if type(out) not in (tuple, list) or len(out) != len(result):
            raise TypeError(f"{name}(): argument 'out' must be tuple of Tensors, not {pytype(out)}")
        for r, o in zip(result, out):
            write_out(r, o, name)
        return type(result)(out) if type(result) is tuple else result
    if type(out) is not Tensor:
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {pytype(out)}")
    if type(result) is not Tensor:
        result = _new(np.asarray(result))
    if GRAD[0] and (out.requires_grad or result.requires_grad):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    rd, od = result.dtype, out.dtype
    if rd is not od and D.promote_types(rd, od) is not od and not (rd.is_floating_point is False and
                                                                   od.is_floating_point):
        raise RuntimeError(f"result type {legacy_scalar(rd)} can't be cast to the desired output type "
                           f"{legacy_scalar(od)}")
    values = result._a.astype(out._a.dtype, copy=False)
    if out._a.shape != values.shape:
        out._a = np.array(values, copy=True)
    else:
        out._a[...] = values
    out._ver[0] += 1
    return out


def _second_param(found):
    """The name torch.NAME(input, other=...) must reach when the function calls its second
    parameter otherwise (found: its _parameters)."""
    if found is None:
        return None
    names = found[0]
    if "other" in names or len(names) < 2:
        return None
    return names[1]


def _torch_spellings(fn, name):
    found = _parameters(fn)
    takes_dim, other_name = _takes_dim(found), _second_param(found)

    def torch_fn(*args, **kwargs):
        if kwargs:
            if takes_dim:
                _rename(kwargs, name)
            if "input" in kwargs and not args:
                args = (kwargs.pop("input"),)
            if other_name is not None and "other" in kwargs:
                kwargs[other_name] = kwargs.pop("other")
            if "out" in kwargs:
                out = kwargs.pop("out")
                if out is not None:
                    return write_out(fn(*args, **kwargs), out, name)
        return fn(*args, **kwargs)
    torch_fn.__name__ = torch_fn.__qualname__ = name
    torch_fn.__wrapped__ = getattr(fn, "__wrapped__", fn)
    return torch_fn


# the torch-level in-place functions PyTorch 2.13 has (dir(torch) names ending in "_")
_TORCH_INPLACE = frozenset("""abs_ acos_ acosh_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ asinh_
atan_ atanh_ ceil_ clamp_ clamp_max_ clamp_min_ clip_
cos_ cosh_ deg2rad_ erf_ erfc_ exp2_ exp_ expm1_ fix_ floor_ frac_ gcd_ i0_ lcm_ log10_ log1p_ log2_ log_ logit_
nan_to_num_ neg_ negative_ rad2deg_ reciprocal_ relu_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_
tanh_ trunc_ xlogy_ zero_ fill_""".split())


def inplace_functions():
    """torch.sin_(x) & co.: the in-place variants PyTorch also offers as torch functions."""
    ns = {}
    for op in REGISTRY.values():
        for name in op.methods:
            fn = getattr(Tensor, name + "_", None)
            if name + "_" in _TORCH_INPLACE and fn is not None:
                ns[name + "_"] = fn
    return ns


def install_method_aliases():
    """axis=/keepdims= on every Tensor method whose op takes dim/keepdim."""
    for op in REGISTRY.values():
        if op.attribute or not _takes_dim(_parameters(op.forward)):
            continue
        for name in op.methods:
            setattr(Tensor, name, _aliased_method(op.forward, name))


# ---------------------------------------------------------------- factories
_SIZE_FIRST = frozenset(("zeros", "ones", "empty", "rand", "randn"))


def factory(fn, name):
    """A torch.* factory with device=, size= and out=."""
    size_first = name in _SIZE_FIRST
    like = name.endswith("_like")   # these follow their input's device, never the default one

    def make(*args, **kwargs):
        if devices.ACTIVE[0] is not None and not like and "device" not in kwargs:
            devices.check_factory(None)
        if kwargs:
            if "device" in kwargs:
                (devices.check if like else devices.check_factory)(kwargs.pop("device"))
            if size_first and "size" in kwargs:
                if type(kwargs["size"]) is int:   # only separate positional ints are a size
                    raise TypeError(f"{name}(): argument 'size' must be tuple of ints, not int")
                args = (kwargs.pop("size"),) + args
            if "out" in kwargs:
                out = kwargs.pop("out")
                if out is not None:
                    if name in ("rand", "randn") and "dtype" not in kwargs:
                        kwargs["dtype"] = out.dtype
                    return write_out(fn(*args, **kwargs), out, name)
            for k in ("layout", "pin_memory", "memory_format", "non_blocking"):
                kwargs.pop(k, None)
        return fn(*args, **kwargs)
    make.__name__ = make.__qualname__ = name
    make.__wrapped__ = fn
    return make


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False, out=None):
    devices.check(device)
    dt = C._dtype_arg(dtype, D.DEFAULT_FLOAT[0])
    exps = C.linspace(start, end, steps, dtype=D.float64)._a
    vals = np.power(np.float64(base), exps)
    return C._finish(vals.astype(dt.np), requires_grad)


# ---------------------------------------------------------------- legacy tensor types
class LegacyTensorType:
    """torch.FloatTensor & co.: calling builds a tensor of that dtype from data or sizes."""

    __slots__ = ("name", "tensor_dtype", "cuda")

    def __init__(self, name, dtype, cuda=False):
        self.name = name
        self.tensor_dtype = dtype
        self.cuda = cuda        # torch.cuda.FloatTensor & co.: named, but a CPU-only PyTorch has none

    @property
    def dtype(self):
        return self.tensor_dtype

    def __call__(self, *args, **kwargs):
        if self.cuda:
            raise TypeError(f"type torch.cuda.{self.name} not available. {devices.NO_CUDA}.")
        C.check_legacy_kwargs(args, kwargs)
        devices.check_legacy(kwargs.pop("device", None))
        if len(args) == 1 and type(args[0]) is Tensor:
            return args[0].to(self.tensor_dtype)
        from_numpy_data = C.legacy_from_numpy(args, self.tensor_dtype)
        if from_numpy_data is not None:
            return from_numpy_data
        if C.legacy_is_data(args):
            return C.tensor(args[0], dtype=self.tensor_dtype)
        if not args:
            return _new(np.zeros((0,), self.tensor_dtype.np))
        if len(args) == 1 and isinstance(args[0], float):
            raise TypeError("new(): data must be a sequence (got float)")
        shape = C._size_args(args, self.name)
        C._check_bytes(shape, self.tensor_dtype)
        return _new(np.zeros(shape, self.tensor_dtype.np))

    def __repr__(self):
        return f"<class 'torch.{'cuda.' if self.cuda else ''}{self.name}'>"

    def matches(self, obj):
        return type(obj) is Tensor and obj.dtype is self.tensor_dtype and not self.cuda


LEGACY_TYPES = {name: LegacyTensorType(name, dt) for name, dt in (
    ("FloatTensor", D.float32), ("DoubleTensor", D.float64), ("HalfTensor", D.float16), ("BFloat16Tensor", D.bfloat16),
    ("LongTensor", D.int64), ("IntTensor", D.int32), ("ShortTensor", D.int16), ("CharTensor", D.int8),
    ("ByteTensor", D.uint8), ("BoolTensor", D.bool_)) if dt is not None}
CUDA_LEGACY_TYPES = {name: LegacyTensorType(name, t.tensor_dtype, cuda=True) for name, t in LEGACY_TYPES.items()}


def legacy_type_by_name(text):
    name = text[len("torch."):] if text.startswith("torch.") else None
    t = LEGACY_TYPES.get(name)
    if t is None:
        raise ValueError(f"invalid type: '{text}'")
    return t.tensor_dtype


# ---------------------------------------------------------------- default dtype, type queries
def get_default_dtype():
    return D.DEFAULT_FLOAT[0]


def set_default_dtype(d):
    if not isinstance(d, D.DType):
        raise TypeError(f"invalid dtype object: only floating-point types are supported as the default type")
    if not d.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    D.DEFAULT_FLOAT[0] = d
    set_default_float(d.np)


def set_default_tensor_type(t):
    """torch.set_default_tensor_type (deprecated): the default dtype from a legacy tensor type."""
    if isinstance(t, str):
        found = LEGACY_TYPES.get(t[len("torch."):]) if t.startswith("torch.") else None
        if found is None:
            raise TypeError(f"invalid type: '{t}'")
        t = found
    if type(t) is not LegacyTensorType:
        raise TypeError("invalid type object: only floating-point types are supported as the default type")
    warn("UserWarning", "torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
         "torch.set_default_dtype() and torch.set_default_device() as alternatives. (Triggered internally at "
         "/__w/pytorch/pytorch/torch/csrc/tensor/python_tensor.cpp:434.)")
    if not t.tensor_dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    set_default_dtype(t.tensor_dtype)


def _dtype_of(x):
    if type(x) is Tensor:
        return x.dtype
    if isinstance(x, D.DType):
        return x
    return None


def result_type(tensor1, tensor2):
    return D.result_type((tensor1, tensor2))


def promote_types(type1, type2):
    return D.promote_types(type1, type2)


def can_cast(from_, to):
    if from_.is_floating_point and not to.is_floating_point:
        return False
    if from_ is not D.bool_ and to is D.bool_:
        return False
    if from_.np.kind in "iu" and to.np.kind == "u" and from_.np.kind == "i":
        return False
    return True


def _g(x):
    """A float as PyTorch's finfo repr prints it (C's %g)."""
    return f"{x:g}"


class finfo:
    """torch.finfo(dtype): the machine limits of a floating dtype."""

    __slots__ = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype")

    def __init__(self, type=None):
        dt = D.DEFAULT_FLOAT[0] if type is None else type
        if not isinstance(dt, D.DType) or not dt.is_floating_point:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        import ml_dtypes
        info = ml_dtypes.finfo(dt.np)   # NumPy's finfo, and bfloat16's
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.tiny = self.smallest_normal = float(info.tiny)
        self.resolution = 10.0 ** -int(info.precision)
        self.dtype = dt.name.split(".")[-1]

    def __repr__(self):
        return (f"finfo(resolution={_g(self.resolution)}, min={_g(self.min)}, max={_g(self.max)}, eps={_g(self.eps)}, "
                f"smallest_normal={_g(self.smallest_normal)}, tiny={_g(self.tiny)}, dtype={self.dtype})")


class iinfo:
    """torch.iinfo(dtype): the limits of an integer dtype."""

    __slots__ = ("bits", "max", "min", "dtype")

    def __init__(self, type):
        if not isinstance(type, D.DType) or type.is_floating_point or type is D.bool_:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle "
                            "'torch.iinfo'")
        info = np.iinfo(type.np)
        self.bits = int(info.bits)
        self.max = int(info.max)
        self.min = int(info.min)
        self.dtype = type.name.split(".")[-1]

    def __repr__(self):
        return f"iinfo(min={_g(float(self.min))}, max={_g(float(self.max))}, dtype={self.dtype})"


FINFO_ATTRS = frozenset(finfo.__slots__)
IINFO_ATTRS = frozenset(iinfo.__slots__)


# process-wide settings that change nothing in gradrepl's engine, kept so that they read back
SETTINGS = {"threads": os.cpu_count() or 1, "interop_threads": os.cpu_count() or 1, "deterministic": False,
            "warn_only": False, "matmul_precision": "highest"}


def set_num_threads(int):
    if type(int) is not builtins.int or int <= 0:
        raise RuntimeError("set_num_threads expects a positive integer")
    SETTINGS["threads"] = THREADS["n"] = int
    mkl.set_num_threads(int)     # a matrix product's bits depend on MKL's threads, as PyTorch's


def set_num_interop_threads(int):
    if type(int) is not builtins.int or int <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    SETTINGS["interop_threads"] = int


def use_deterministic_algorithms(mode, *, warn_only=False):
    SETTINGS["deterministic"], SETTINGS["warn_only"] = bool(mode), bool(warn_only)


_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}


def set_deterministic_debug_mode(debug_mode):
    """0 / "default": off; 1 / "warn": deterministic algorithms, warning only; 2 / "error": on."""
    if isinstance(debug_mode, str):
        if debug_mode not in _DEBUG_MODES:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = _DEBUG_MODES[debug_mode]
    elif debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    return 0 if not SETTINGS["deterministic"] else 1 if SETTINGS["warn_only"] else 2


def set_float32_matmul_precision(precision):
    if precision not in ("highest", "high", "medium"):
        warn("UserWarning", f"{precision} is not one of 'highest', 'high', or 'medium'; the "
             "currentsetFloat32MatmulPrecision call has no effect.")
        return
    SETTINGS["matmul_precision"] = precision


def typename(obj):
    if type(obj) is Tensor:
        return "torch." + obj.dtype.legacy
    return pytype(obj)


def settings_namespace():
    return {
        "set_num_threads": set_num_threads,
        "get_num_threads": lambda: SETTINGS["threads"],
        "set_num_interop_threads": set_num_interop_threads,
        "get_num_interop_threads": lambda: SETTINGS["interop_threads"],
        "use_deterministic_algorithms": use_deterministic_algorithms,
        "are_deterministic_algorithms_enabled": lambda: SETTINGS["deterministic"],
        "is_deterministic_algorithms_warn_only_enabled": lambda: SETTINGS["warn_only"],
        "set_float32_matmul_precision": set_float32_matmul_precision,
        "set_deterministic_debug_mode": set_deterministic_debug_mode,
        "get_deterministic_debug_mode": get_deterministic_debug_mode,
        "get_float32_matmul_precision": lambda: SETTINGS["matmul_precision"],
        "set_flush_denormal": lambda mode: True,
        "typename": typename,
        "scalar_tensor": lambda s, *, dtype=None, device=None, requires_grad=False: C.tensor(
            float(s) if dtype is None else s, dtype=dtype, requires_grad=requires_grad),
        **MEMORY_FORMATS,
    }


def extend_autograd(ns):
    """torch.autograd's functional API, anomaly detection; torch.func."""
    ns["functional"] = {**ns.get("functional", {}), **functional.AUTOGRAD_FUNCTIONAL}
    ns["detect_anomaly"] = functional.detect_anomaly
    ns["set_detect_anomaly"] = functional.set_detect_anomaly


def namespace():
    """What spellings add to the torch namespace."""
    ns = dict(LEGACY_TYPES)
    ns.update({
        "device": devices.device,
        "set_default_device": devices.set_default_device,
        "get_default_device": devices.get_default_device,
        "cuda": {**devices.CUDA, **CUDA_LEGACY_TYPES},
        "accelerator": devices.ACCELERATOR,
        "backends": devices.BACKENDS,
        "get_default_dtype": get_default_dtype,
        "set_default_dtype": set_default_dtype,
        "set_default_tensor_type": set_default_tensor_type,
        "result_type": result_type,
        "promote_types": promote_types,
        "can_cast": can_cast,
        "finfo": finfo,
        "iinfo": iinfo,
        "logspace": factory(logspace, "logspace"),
        "strided": LAYOUT,
        "special": dict(special.SPECIAL),
        "linalg": {**linalg_ext.LINALG, **arrange.LINALG},
        "concatenate": shape.cat,
        "func": dict(functional.FUNC),
        "vmap": functional.vmap,
        "is_anomaly_enabled": functional.is_anomaly_enabled,
        "set_anomaly_enabled": functional.set_anomaly_enabled,
        "is_anomaly_check_nan_enabled": functional.is_anomaly_check_nan_enabled,
        "is_inference_mode_enabled": F.is_inference_mode_enabled,
        "is_inference": lambda input: input.is_inference(),
    })
    ns.update(inplace_functions())
    ns.update(settings_namespace())
    ns.update(special.EXTRA_TORCH)
    ns.update(linalg_ext.EXTRA_TORCH)
    ns.update(breadth_torch.EXTRA_TORCH)
    return ns
