"""Automatic mixed precision as a CPU-only PyTorch 2.13 runs it: `torch.autocast` (also
`torch.amp.autocast`, `torch.cpu.amp.autocast`, `torch.cuda.amp.autocast`) and
`torch.amp.GradScaler` (also `torch.GradScaler`, `torch.cpu.amp.GradScaler`,
`torch.cuda.amp.GradScaler`).

Inside CPU autocast the ops of PyTorch's CPU autocast lists cast their floating-point
tensor arguments first (float64 ones never): the `lower` ones (matmuls, linear,
convolutions) to the autocast dtype (bfloat16 unless told), the `fp32` ones (losses,
linear algebra, 3-d pooling) to float32, the `promote` ones (cat, stack) to the widest
of their arguments. The cast is an ordinary `to` (a ToCopyBackward0 node); a float32 leaf
that requires grad is cast once per outermost autocast region (PyTorch's cast cache).
While such an op runs, the ops it calls do not cast again. `install` wraps each of those
ops where user code reaches it (torch.*, torch.nn.functional, torch.linalg, Tensor's
methods); outside autocast a wrapper only calls through.

A CUDA autocast or a CUDA GradScaler on this CPU-only build warns as PyTorch does and is
disabled; a CPU GradScaler really scales (its scale and growth tracker are tensors and
update as PyTorch's `_amp_update_scale_`).
"""
import numpy as np

from gradrepl.engine import devices
from gradrepl.engine import dtypes as D
from gradrepl.engine.ops.convert import convert
from gradrepl.engine.tensor import Tensor, wrap
from gradrepl.engine.util import warn

# ------------------------------------------------------------------ PyTorch's CPU autocast lists
LOWER, FP32, PROMOTE = "lower", "fp32", "promote"
_LOWER_OPS = ("conv1d conv2d conv3d bmm mm baddbmm addmm addbmm linear matmul conv_tbc conv_transpose1d "
              "conv_transpose2d conv_transpose3d prelu scaled_dot_product_attention __matmul__ __rmatmul__").split()
_FP32_OPS = ("avg_pool3d binary_cross_entropy grid_sample grid_sampler polar prod quantile nanquantile stft cdist "
             "trace cholesky cholesky_inverse cholesky_solve inverse lu_solve orgqr ormqr pinverse max_pool3d "
             "max_unpool2d max_unpool3d adaptive_avg_pool3d mse_loss cosine_embedding_loss nll_loss "
             "hinge_embedding_loss poisson_nll_loss smooth_l1_loss cross_entropy l1_loss huber_loss "
             "margin_ranking_loss soft_margin_loss triplet_margin_loss multi_margin_loss ctc_loss kl_div "
             "multilabel_margin_loss binary_cross_entropy_with_logits geqrf qr svd triangular_solve "
             "fractional_max_pool2d fractional_max_pool3d adaptive_max_pool3d").split()
_FP32_LINALG = ("cond matrix_rank solve cholesky svdvals eigvals eigvalsh inv householder_product tensorinv "
                "tensorsolve qr cholesky_ex svd eig eigh lstsq inv_ex").split()
_FP32_FFT = "fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft".split()
_PROMOTE_OPS = ("stack", "cat", "concatenate", "concat", "index_copy")
PAD = "pad"   # F.pad: float32 where ATen's pad calls reflection_pad1d/2d or replication_pad1d/2d/3d
POLICIES = {**{n: LOWER for n in _LOWER_OPS}, **{n: FP32 for n in _FP32_OPS}, **{n: PROMOTE for n in _PROMOTE_OPS},
            "pad": PAD}
LINALG_POLICIES = {**{n: FP32 for n in _FP32_LINALG}, "vecdot": LOWER}
FFT_POLICIES = {n: FP32 for n in _FP32_FFT}

# ------------------------------------------------------------------ the autocast state
_KNOWN = ("cpu", "cuda", "mps", "xpu", "hpu", "mtia", "ipu", "xla", "privateuseone")
ENABLED = {d: False for d in _KNOWN}
FAST = {"cpu": D.bfloat16, "cuda": D.float16, "mps": D.float16, "xpu": D.float16, "hpu": D.bfloat16,
        "mtia": D.float16, "ipu": D.float16, "xla": D.bfloat16, "privateuseone": D.float16}
ACTIVE = [None]          # the dtype CPU autocast casts the `lower` ops to while it is on, else None
CACHE_ENABLED = [True]
NESTING = [0]
_CACHE = {}              # id(float32 leaf) -> (leaf, its cast): one cast per outermost region


def _device_type(device_type):
    """The device type of `device_type` ('cuda:0' -> 'cuda'), with PyTorch's errors."""
    if not isinstance(device_type, str):
        raise TypeError(f"get_autocast_dtype(): argument 'device_type' (position 1) must be str, not "
                        f"{type(device_type).__name__}")
    if not device_type:
        raise RuntimeError("Device string must not be empty")
    return devices.device(device_type).type


def _refresh():
    ACTIVE[0] = FAST["cpu"] if ENABLED["cpu"] else None


def is_autocast_available(device_type):
    return _device_type(device_type) in _KNOWN


def get_autocast_dtype(device_type):
    kind = _device_type(device_type)
    if kind not in FAST:
        raise RuntimeError("unsupported scalarType")
    return FAST[kind]


def set_autocast_dtype(device_type, dtype):
    kind = _device_type(device_type)
    if kind not in FAST:
        raise RuntimeError("unsupported scalarType")
    FAST[kind] = dtype
    _refresh()


def is_autocast_enabled(device_type=None):
    if device_type is None:        # torch.is_autocast_enabled(): CUDA's, as PyTorch answers
        return ENABLED["cuda"]
    return ENABLED.get(_device_type(device_type), False)


def set_autocast_enabled(device_type, enabled=None):
    if enabled is None:            # set_autocast_enabled(flag): CUDA's
        device_type, enabled = "cuda", device_type
    kind = _device_type(device_type)
    if kind in ENABLED:
        ENABLED[kind] = bool(enabled)
    _refresh()


def is_autocast_cpu_enabled():
    warn("DeprecationWarning", "torch.is_autocast_cpu_enabled() is deprecated. Please use "
                               "torch.is_autocast_enabled('cpu') instead.")
    return ENABLED["cpu"]


def set_autocast_cpu_enabled(enabled):
    warn("DeprecationWarning", "torch.set_autocast_cpu_enabled(enabled) is deprecated. Please use "
                               "torch.set_autocast_enabled('cpu', enabled) instead.")
    set_autocast_enabled("cpu", enabled)


def get_autocast_cpu_dtype():
    warn("DeprecationWarning", "torch.get_autocast_cpu_dtype() is deprecated. Please use "
                               "torch.get_autocast_dtype('cpu') instead.")
    return FAST["cpu"]


def set_autocast_cpu_dtype(dtype):
    warn("DeprecationWarning", "torch.set_autocast_cpu_dtype(dtype) is deprecated. Please use "
                               "torch.set_autocast_dtype('cpu', dtype) instead.")
    set_autocast_dtype("cpu", dtype)


def get_autocast_gpu_dtype():
    warn("DeprecationWarning", "torch.get_autocast_gpu_dtype() is deprecated. Please use "
                               "torch.get_autocast_dtype('cuda') instead.")
    return FAST["cuda"]


def is_autocast_cache_enabled():
    return CACHE_ENABLED[0]


def set_autocast_cache_enabled(enabled):
    CACHE_ENABLED[0] = bool(enabled)


def clear_autocast_cache():
    _CACHE.clear()


def autocast_increment_nesting():
    NESTING[0] += 1
    return NESTING[0]


def autocast_decrement_nesting():
    NESTING[0] -= 1
    return NESTING[0]


def reset():
    """After an interrupted statement: autocast off everywhere, nothing cached."""
    for kind in ENABLED:
        ENABLED[kind] = False
    NESTING[0] = 0
    CACHE_ENABLED[0] = True
    _CACHE.clear()
    _refresh()


# ------------------------------------------------------------------ casting an op's arguments
def _eligible(t):
    return t.dtype.is_floating_point and t.dtype is not D.float64


def _cast(value, dtype):
    t = type(value)
    if t is Tensor:
        if value.dtype is dtype or not _eligible(value):
            return value
        if (dtype is ACTIVE[0] and value.dtype is D.float32 and value._rg and value._fn is None
                and value._base is None and CACHE_ENABLED[0]):
            hit = _CACHE.get(id(value))
            if hit is not None and hit[0] is value:
                return hit[1]
            out = convert(value, dtype)
            _CACHE[id(value)] = (value, out)
            return out
        return convert(value, dtype)
    if t is list or t is tuple:
        return t([_cast(v, dtype) for v in value])
    return value


def _widest(values, lower, acc):
    """PyTorch's autocast `prioritize`: float32 wins over the lower dtype; float64 and
    non-floating tensors are left out."""
    for v in values:
        t = type(v)
        if t is list or t is tuple:
            acc = _widest(v, lower, acc)
        elif t is Tensor and v.dtype.is_floating_point:
            nxt = v.dtype
            if nxt is D.float64:
                continue
            if acc is D.float32 or nxt is D.float32:
                acc = D.float32
            elif not (acc is lower and nxt is lower):
                raise RuntimeError("Unexpected floating ScalarType in at::autocast::prioritize")
    return acc


def _pad_policy(args, kwargs):
    pad = args[1] if len(args) > 1 else kwargs.get("pad", ())
    mode = args[2] if len(args) > 2 else kwargs.get("mode", "constant")
    dims = len(pad) // 2 if isinstance(pad, (list, tuple)) else 0
    if (mode == "reflect" and dims in (1, 2)) or (mode == "replicate" and dims in (1, 2, 3)):
        return FP32
    return None


def _run(fn, policy, lower, args, kwargs):
    if kwargs.get("out") is not None:       # an out= overload has no autocast kernel
        return fn(*args, **kwargs)
    if policy is PAD:
        policy = _pad_policy(args, kwargs)
        if policy is None:
            return fn(*args, **kwargs)
    if policy is LOWER:
        dtype = lower
    elif policy is FP32:
        dtype = D.float32
    else:
        dtype = _widest(kwargs.values(), lower, _widest(args, lower, lower))
    args = [_cast(a, dtype) for a in args]
    kwargs = {k: _cast(v, dtype) for k, v in kwargs.items()}
    ACTIVE[0] = None          # the ops this one calls do not autocast again
    try:
        return fn(*args, **kwargs)
    finally:
        ACTIVE[0] = lower


_WRAPPED = {}


def autocast_op(fn, policy):
    """fn, casting its arguments first while CPU autocast is on."""
    if fn in _WRAPPED:
        return fn

    def op(*args, **kwargs):
        lower = ACTIVE[0]
        if lower is None:
            return fn(*args, **kwargs)
        return _run(fn, policy, lower, args, kwargs)
    for attr in ("__name__", "__qualname__", "__doc__", "__module__"):
        try:
            setattr(op, attr, getattr(fn, attr))
        except (AttributeError, TypeError):
            pass
    op.__wrapped__ = fn
    _WRAPPED[op] = fn
    return op


def install(namespace, policies):
    """Wrap the functions of `namespace` (a dict) that `policies` names; returns
    {wrapper: original} for the signature tables."""
    done = {}
    for name, policy in policies.items():
        fn = namespace.get(name)
        if fn is not None and callable(fn) and not isinstance(fn, type):
            namespace[name] = autocast_op(fn, policy)
            done[namespace[name]] = fn
    return done


def install_methods():
    for name, policy in POLICIES.items():
        fn = Tensor.__dict__.get(name)
        if fn is not None and callable(fn) and not isinstance(fn, (type, property)):
            setattr(Tensor, name, autocast_op(fn, policy))


# ------------------------------------------------------------------ torch.autocast
def _type_repr(value):
    if type(value) is Tensor:
        return "<class 'torch.Tensor'>"
    return f"<class '{type(value).__name__}'>"


class autocast:
    """torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None): a context
    manager and a decorator."""

    _path = "torch.amp.autocast_mode.autocast"

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{_type_repr(device_type)}`")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(device_type):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
        self._cache_enabled = CACHE_ENABLED[0] if cache_enabled is None else cache_enabled
        if enabled:
            if device_type == "cuda":
                warn("UserWarning", "CUDA is not available or torch_xla is imported. Disabling autocast.")
                enabled = False
            elif self.fast_dtype not in (D.bfloat16, D.float16):
                name = device_type.upper()
                warn("UserWarning", f"In {name} autocast, but the target dtype is not supported. Disabling "
                                    f"autocast.\n{name} Autocast only supports dtypes of torch.bfloat16, "
                                    "torch.float16 currently.")
                enabled = False
        self._enabled = enabled
        self._saved = []

    def __enter__(self):
        self._saved.append((CACHE_ENABLED[0], is_autocast_enabled(self.device), get_autocast_dtype(self.device)))
        set_autocast_enabled(self.device, self._enabled)
        set_autocast_dtype(self.device, self.fast_dtype)
        autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, *exc):
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        if self._saved:
            cache, prev, prev_dtype = self._saved.pop()
            set_autocast_enabled(self.device, prev)
            set_autocast_dtype(self.device, prev_dtype)
            set_autocast_cache_enabled(cache)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(f"autocast()(func) requires a callable, but got {type(func).__name__}. Did you mean "
                            "to use autocast as a context manager? For example:\n    with "
                            "torch.autocast(device_type=...):\n        output = model(input)")
        return AutocastFunction(self, func)

    def __repr__(self):
        return f"<{self._path} object at {id(self):#x}>"


class AutocastFunction:
    """A function decorated with @torch.autocast(...): runs it inside that autocast."""

    __slots__ = ("_mode", "_fn")

    def __init__(self, mode, fn):
        self._mode = mode
        self._fn = fn

    def __call__(self, *args, **kwargs):
        with self._mode:
            return self._fn(*args, **kwargs)

    def __repr__(self):
        return repr(self._fn)


class cpu_autocast(autocast):
    """torch.cpu.amp.autocast(enabled=True, dtype=torch.bfloat16, cache_enabled=True): deprecated."""

    _path = "torch.cpu.amp.autocast_mode.autocast"

    def __init__(self, enabled=True, dtype=D.bfloat16, cache_enabled=True):
        warn("FutureWarning", "`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
                              "`torch.amp.autocast('cpu', args...)` instead.")
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


class cuda_autocast(autocast):
    """torch.cuda.amp.autocast(enabled=True, dtype=torch.float16, cache_enabled=True): deprecated."""

    _path = "torch.cuda.amp.autocast_mode.autocast"

    def __init__(self, enabled=True, dtype=D.float16, cache_enabled=True):
        warn("FutureWarning", "`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                              "`torch.amp.autocast('cuda', args...)` instead.")
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


AUTOCAST_ATTRS = frozenset(("device", "fast_dtype"))


# ------------------------------------------------------------------ torch.amp.GradScaler
_READY, _UNSCALED, _STEPPED = 0, 1, 2
_FIX = "This may indicate your script did not use scaler.scale(loss or outputs) earlier in the iteration."


def _new_state():
    return {"stage": _READY, "found_inf": []}


class GradScaler:
    """torch.amp.GradScaler(device="cuda", init_scale=2.**16, growth_factor=2.0,
    backoff_factor=0.5, growth_interval=2000, enabled=True)."""

    _path = "torch.amp.grad_scaler.GradScaler"

    def __init__(self, device="cuda", init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000, enabled=True):
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled:
            warn("UserWarning", "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.")
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = init_scale
            self._scale = None
            self._growth_factor = growth_factor
            self._backoff_factor = backoff_factor
            self._growth_interval = growth_interval
            self._init_growth_tracker = 0
            self._growth_tracker = None
            self._states = {}

    def __repr__(self):
        return f"<{self._path} object at {id(self):#x}>"

    def _state(self, optimizer):
        entry = self._states.get(id(optimizer))
        if entry is None or entry[0] is not optimizer:
            entry = self._states[id(optimizer)] = (optimizer, _new_state())
        return entry[1]

    def _check(self, funcname):
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  " + _FIX)

    def scale(self, outputs):
        if not self._enabled:
            return outputs
        if self._scale is None:
            self._scale = wrap(np.array(self._init_scale, dtype=np.float32))
            self._growth_tracker = wrap(np.array(self._init_growth_tracker, dtype=np.int32))
        if type(outputs) is Tensor:
            return outputs * self._scale
        return self._scale_all(outputs)

    def _scale_all(self, value):
        if type(value) is Tensor:
            return value * self._scale
        if isinstance(value, (list, tuple)):
            return type(value)(self._scale_all(v) for v in value)
        if isinstance(value, (str, bytes, dict, set)) or not hasattr(value, "__iter__"):
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")
        return map(self._scale_all, value)

    def _unscale_grads(self, optimizer, inv_scale):
        found = False
        for group in optimizer.param_groups:
            for param in group["params"]:
                grad = param._grad if type(param) is Tensor else None
                if grad is None:
                    continue
                if grad.dtype is D.float16:
                    raise ValueError("Attempting to unscale FP16 gradients.")
                a = grad._a
                if a.dtype == np.float64:
                    finite = np.isfinite(a).all()
                    new = a * np.float64(inv_scale)
                else:
                    wide = a.astype(np.float32) if a.dtype != np.float32 else a
                    finite = np.isfinite(wide).all()
                    new = (wide * np.float32(inv_scale)).astype(a.dtype, copy=False)
                if not finite:
                    found = True
                if inv_scale != 1.0:
                    if a.flags.writeable:
                        a[...] = new
                    else:
                        grad._a = new
                    grad._ver[0] += 1
        return found

    def unscale_(self, optimizer):
        if not self._enabled:
            return
        self._check("unscale_")
        state = self._state(optimizer)
        if state["stage"] == _UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last update().")
        if state["stage"] == _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = np.float32(1.0 / np.float64(self._scale._a))
        state["found_inf"] = [self._unscale_grads(optimizer, inv_scale)]
        state["stage"] = _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check("step")
        state = self._state(optimizer)
        if state["stage"] == _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == _READY:
            self.unscale_(optimizer)
        if not state["found_inf"]:
            raise AssertionError("No inf checks were recorded for this optimizer.")
        retval = None
        if not any(state["found_inf"]):
            retval = optimizer.step(*args, **kwargs)
        state["stage"] = _STEPPED
        return retval

    def update(self, new_scale=None):
        if not self._enabled:
            return
        self._check("update")
        scale = self._scale._a
        if new_scale is not None:
            if isinstance(new_scale, float):
                scale[...] = np.float32(new_scale)
            else:
                reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or torch.FloatTensor "
                          "with requires_grad=False.")
                if type(new_scale) is not Tensor or new_scale.numel() != 1 or new_scale.requires_grad:
                    raise AssertionError(reason)
                scale[...] = new_scale._a.reshape(()).astype(np.float32)
        else:
            found = [f for _, state in self._states.values() for f in state["found_inf"]]
            if not found:
                raise AssertionError("No inf checks were recorded prior to update.")
            tracker = self._growth_tracker._a
            if any(found):
                scale[...] = np.float32(float(scale) * self._backoff_factor)
                tracker[...] = 0
            else:
                successful = int(tracker) + 1
                if successful == self._growth_interval:
                    grown = np.float32(float(scale) * self._growth_factor)
                    if np.isfinite(grown):
                        scale[...] = grown
                    tracker[...] = 0
                else:
                    tracker[...] = successful
        self._states = {}

    def get_scale(self):
        if self._enabled:
            return self._init_scale if self._scale is None else float(self._scale._a)
        return 1.0

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def _tracker(self):
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None else int(self._growth_tracker._a)
        return 0

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        if self._enabled:
            return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                    "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                    "_growth_tracker": self._tracker()}
        return {}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a disabled "
                               "instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale._a[...] = np.float32(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker._a[...] = state_dict["_growth_tracker"]


class cpu_GradScaler(GradScaler):
    """torch.cpu.amp.GradScaler(...): deprecated, torch.amp.GradScaler("cpu", ...)."""

    _path = "torch.cpu.amp.grad_scaler.GradScaler"

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        warn("FutureWarning", "`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use "
                              "`torch.amp.GradScaler('cpu', args...)` instead.")
        super().__init__("cpu", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


class cuda_GradScaler(GradScaler):
    """torch.cuda.amp.GradScaler(...): deprecated, torch.amp.GradScaler("cuda", ...)."""

    _path = "torch.cuda.amp.grad_scaler.GradScaler"

    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        warn("FutureWarning", "`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                              "`torch.amp.GradScaler('cuda', args...)` instead.")
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


SCALER_ATTRS = frozenset(("scale", "unscale_", "step", "update", "get_scale", "get_growth_factor",
                          "set_growth_factor", "get_backoff_factor", "set_backoff_factor", "get_growth_interval",
                          "set_growth_interval", "is_enabled", "state_dict", "load_state_dict"))
CLASSES = (autocast, cpu_autocast, cuda_autocast, GradScaler, cpu_GradScaler, cuda_GradScaler)


def namespaces():
    """(torch-level entries, torch.amp, torch.cpu.amp, torch.cuda.amp)."""
    top = {
        "autocast": autocast,
        "GradScaler": GradScaler,
        "is_autocast_enabled": is_autocast_enabled,
        "set_autocast_enabled": set_autocast_enabled,
        "get_autocast_dtype": get_autocast_dtype,
        "set_autocast_dtype": set_autocast_dtype,
        "is_autocast_cpu_enabled": is_autocast_cpu_enabled,
        "set_autocast_cpu_enabled": set_autocast_cpu_enabled,
        "get_autocast_cpu_dtype": get_autocast_cpu_dtype,
        "set_autocast_cpu_dtype": set_autocast_cpu_dtype,
        "get_autocast_gpu_dtype": get_autocast_gpu_dtype,
        "is_autocast_cache_enabled": is_autocast_cache_enabled,
        "set_autocast_cache_enabled": set_autocast_cache_enabled,
        "clear_autocast_cache": clear_autocast_cache,
        "autocast_increment_nesting": autocast_increment_nesting,
        "autocast_decrement_nesting": autocast_decrement_nesting,
    }
    amp = {"autocast": autocast, "GradScaler": GradScaler, "is_autocast_available": is_autocast_available,
           "autocast_mode": {"autocast": autocast, "is_autocast_available": is_autocast_available},
           "grad_scaler": {"GradScaler": GradScaler}}
    cpu_amp = {"autocast": cpu_autocast, "GradScaler": cpu_GradScaler,
               "autocast_mode": {"autocast": cpu_autocast}, "grad_scaler": {"GradScaler": cpu_GradScaler}}
    cuda_amp = {"autocast": cuda_autocast, "GradScaler": cuda_GradScaler,
                "autocast_mode": {"autocast": cuda_autocast}, "grad_scaler": {"GradScaler": cuda_GradScaler}}
    return top, amp, cpu_amp, cuda_amp
