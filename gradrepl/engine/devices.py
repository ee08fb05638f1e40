"""Devices as a CPU-only PyTorch 2.13 sees them: `torch.device`, `torch.cuda`,
`torch.accelerator`, `torch.backends.*.is_available()`, the default device, and the
checks behind every `device=` argument and `.to(device)`.

Only the CPU exists: a CUDA device can be named (`torch.device("cuda:1")` prints) but any
tensor placed on it raises PyTorch's `Torch not compiled with CUDA enabled`.
"""
import weakref
from collections import OrderedDict

import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.util import pytype, warn

DEVICE_TYPES = ("cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, "
                "meta, hpu, mtia, privateuseone")
_KNOWN = frozenset(DEVICE_TYPES.split(", "))
NO_CUDA = "Torch not compiled with CUDA enabled"
# x.type(torch.cuda.FloatTensor) on a CPU-only PyTorch
NO_CUDA_LIBRARY = ("Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two shared "
                   "libraries: a CPU library and a CUDA library; this error has occurred because you are trying to "
                   "use some CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for "
                   "some reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any symbols from "
                   "the CUDA library! One common culprit is a lack of -Wl,--no-as-needed in your link arguments; "
                   "many dynamic linkers will delete dynamic library dependencies if you don't depend on any of "
                   "their symbols.  You can check if this has occurred by using ldd on your binary to see if there "
                   "is a dependency on *_cuda.so library.")
NO_ACCELERATOR = "Cannot access accelerator device when none is available."


class Device:
    """torch.device: a type ('cpu', 'cuda', ...) and an optional index."""

    __slots__ = ("type", "index")

    def __init__(self, type="cpu", index=None):
        self.type = type
        self.index = index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if type(other) is Device:   # a device never equals a string (PyTorch: device('cpu') == 'cpu' is False)
            return self.type == other.type and self.index == other.index
        return NotImplemented

    def __hash__(self):
        return hash((self.type, self.index))

    def __enter__(self):
        """`with torch.device(d):` factories called without `device=` use d inside the block
        (PyTorch's DeviceContext); naming a CUDA device is fine, creating a tensor there raises."""
        _CONTEXTS.append(self)
        _update_active()
        return self

    def __exit__(self, *exc):
        _CONTEXTS.pop()
        _update_active()
        return False


CPU = Device("cpu")
META_DEVICE = Device("meta")

# ---------------------------------------------------------------- meta tensors (engine/metadevice.py)
META = {}     # id(tensor) -> weakref: the tensors on the meta device
MODE = [0]    # 1 while an op runs in meta mode: every tensor it makes is a meta tensor


# A meta tensor of more elements than this has no data at all: its array is one zero seen at
# every index (NumPy's zero strides), so `torch.empty(2**20, 2**26, device="meta")` costs nothing.
DATALESS = 1 << 22


def blank(shape, np_dtype):
    """The array behind a new meta tensor of `shape`: zeros, or no data past DATALESS elements."""
    n = 1
    for s in shape:
        n *= int(s)
    if n > DATALESS:
        shape = tuple(int(s) for s in shape)    # writable: an in-place op (init.uniform_) writes nowhere that matters
        return np.lib.stride_tricks.as_strided(np.zeros((), np_dtype), shape, (0,) * len(shape))
    return np.zeros(shape, np_dtype)


def dataless(t):
    """A meta tensor without data (blank's zero-strided array, or a view of one)."""
    a = t._a
    return a.size > DATALESS and not any(a.strides) and is_meta(t)


def mark_meta(t):
    key = id(t)
    META[key] = weakref.ref(t, lambda _r, k=key: META.pop(k, None))


def is_meta(t):
    ref = META.get(id(t))
    return ref is not None and ref() is t


NO_DATA = "Cannot copy out of meta tensor; no data!"
NO_ITEM = "Tensor.item() cannot be called on meta tensors"
NO_NUMPY = ("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory "
            "first.")


def meta_repr(t, requires_grad, grad_fn_name):
    """PyTorch's repr of a meta tensor: no values, its size (and dtype, grad state): its
    parts, "..." first (Tensor's repr wraps them as PyTorch's suffixes)."""
    parts = ["...", "device='meta'", "size=" + repr(tuple(int(s) for s in t._a.shape))]
    if t.dtype is not D.DEFAULT_FLOAT[0]:
        parts.append(f"dtype={t.dtype}")
    if grad_fn_name is not None:
        parts.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        parts.append("requires_grad=True")
    return parts


def _parse(text):
    kind, sep, index = text.partition(":")
    if kind not in _KNOWN:
        if not kind or not kind.isalpha():
            raise RuntimeError(f"Invalid device string: '{text}'")
        raise RuntimeError(f"Expected one of {DEVICE_TYPES} device type at start of device string: {text}")
    if sep:
        if not index.isdigit() or (len(index) > 1 and index[0] == "0"):
            raise RuntimeError(f"Invalid device string: '{text}'")
        return Device(kind, int(index))
    return Device(kind)


def device(type_or_device, index=None):
    """torch.device(...): from 'cpu', 'cuda:1', ('cuda', 1) or another device."""
    if isinstance(type_or_device, Device):
        return type_or_device
    if isinstance(type_or_device, bool) or not isinstance(type_or_device, (str, int)):
        raise TypeError(f"device() received an invalid combination of arguments - got ({pytype(type_or_device)}), "
                        "but expected one of:")
    if isinstance(type_or_device, int):
        raise RuntimeError(NO_ACCELERATOR)
    d = _parse(type_or_device)
    if index is not None:
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"device(): argument 'index' (position 2) must be int, not {pytype(index)}")
        if d.index is not None:
            raise RuntimeError(f"type (string) must not include an index because index was passed explicitly: "
                               f"{type_or_device}")
        d = Device(d.type, index)
    return d


def check(dev):
    """A `device=` argument or `.to(dev)` target: None and the CPU pass; anything else
    raises what a CPU-only PyTorch raises for it."""
    if dev is None or dev is CPU:
        return
    d = dev if type(dev) is Device else device(dev)
    if d.type == "cpu" or d.type == "meta":
        return
    if d.type == "cuda":
        raise AssertionError(NO_CUDA)
    raise RuntimeError(f"PyTorch is not linked with support for {d.type} devices")


def check_legacy(dev):
    """The device= of torch.Tensor(...) / torch.FloatTensor(...): a CPU type, so only the CPU."""
    if dev is None or dev is CPU:
        return
    d = dev if type(dev) is Device else device(dev)
    if d.type != "cpu":
        raise RuntimeError(f"legacy constructor expects device type: cpu but device type: {d.type} was passed")


def is_device_like(x):
    """Could `x` be a device argument of `.to(...)` (a device or a device string)?"""
    if type(x) is Device:
        return True
    if type(x) is str:
        return True
    return False


# ---------------------------------------------------------------- the default device
_DEFAULT = [None]   # torch.set_default_device's device
_CONTEXTS = []      # the `with torch.device(...)` blocks entered, innermost last
ACTIVE = [None]     # what a factory without device= uses: the innermost block's device, else the default


def _update_active():
    ACTIVE[0] = _CONTEXTS[-1] if _CONTEXTS else _DEFAULT[0]


def set_default_device(dev):
    """Only names the device (as PyTorch): the next factory call is what raises for CUDA."""
    _DEFAULT[0] = None if dev is None else device(dev)
    _update_active()


def get_default_device():
    d = ACTIVE[0]
    if d is None:
        return CPU
    if d.index is None:   # PyTorch asks torch.tensor([]) for the device's index
        check(d)
    return d


def check_factory(dev):
    """The device= of a torch.* factory: None means the active default device."""
    check(ACTIVE[0] if dev is None else dev)


# ---------------------------------------------------------------- torch.cuda / torch.accelerator
def _no_cuda(*args, **kwargs):
    raise AssertionError(NO_CUDA)


def _nothing(*args, **kwargs):
    return None


# What a CPU-only PyTorch's torch.cuda functions do: the memory counters read an empty
# statistics table (0, an empty OrderedDict), the resets and set_device reach for a C
# function the CPU build lacks, what needs a device raises `not compiled with CUDA`.
NO_C_FUNCTION = "module 'torch._C' has no attribute '{}'"
RESETS_ALL_PEAKS = ("torch.cuda.{} now calls torch.cuda.reset_peak_memory_stats, which resets /all/ peak memory "
                    "stats.")
RENAMED = "`torch.cuda.{}` has been renamed to `torch.cuda.{}`"


def _cuda_index(dev, optional):
    """torch.cuda's reading of a device argument (its _get_device_index): a CUDA device,
    an index, or (when optional) nothing."""
    if isinstance(dev, str):
        dev = device(dev)
    if type(dev) is Device:
        if dev.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {dev}")
        index = dev.index
    elif isinstance(dev, int):
        index = dev
    else:
        index = None
    if index is None and not optional:
        raise ValueError(f"Expected a torch.device with a specified index or an integer, but got:{dev}")
    return index


def memory_stats(device=None):
    return OrderedDict()


def memory_allocated(device=None):
    return 0


def max_memory_allocated(device=None):
    return 0


def memory_reserved(device=None):
    return 0


def max_memory_reserved(device=None):
    return 0


def memory_cached(device=None):
    warn("FutureWarning", RENAMED.format("memory_cached", "memory_reserved"))
    return 0


def max_memory_cached(device=None):
    warn("FutureWarning", RENAMED.format("max_memory_cached", "max_memory_reserved"))
    return 0


def memory_summary(device=None, abbreviated=False):
    raise KeyError("allocated_bytes.all.current")


def reset_peak_memory_stats(device=None):
    _cuda_index(device, True)
    raise AttributeError(NO_C_FUNCTION.format("_cuda_resetPeakMemoryStats"))


def reset_accumulated_memory_stats(device=None):
    _cuda_index(device, True)
    raise AttributeError(NO_C_FUNCTION.format("_cuda_resetAccumulatedMemoryStats"))


def reset_max_memory_allocated(device=None):
    warn("FutureWarning", RESETS_ALL_PEAKS.format("reset_max_memory_allocated"))
    return reset_peak_memory_stats(device)


def reset_max_memory_cached(device=None):
    warn("FutureWarning", RESETS_ALL_PEAKS.format("reset_max_memory_cached"))
    return reset_peak_memory_stats(device)


def set_device(device):
    if _cuda_index(device, False) >= 0:
        raise AttributeError(NO_C_FUNCTION.format("_cuda_setDevice"))


def mem_get_info(device=None):
    raise AssertionError(NO_CUDA)


def get_device_capability(device=None):
    raise AssertionError(NO_CUDA)


def get_device_name(device=None):
    raise AssertionError(NO_CUDA)


def get_device_properties(device=None):
    raise AssertionError(NO_CUDA)


def current_stream(device=None):
    raise AssertionError(NO_CUDA)


def default_stream(device=None):
    raise AssertionError(NO_CUDA)


def synchronize(device=None):
    raise AssertionError(NO_CUDA)


def get_rng_state(device="cuda"):
    raise AssertionError(NO_CUDA)


def set_rng_state(new_state, device="cuda"):
    return None


def get_rng_state_all():
    return []


def set_rng_state_all(new_states):
    return None


def is_bf16_supported(including_emulation=True):
    return False


CUDA = {
    "is_available": lambda: False,
    "device_count": lambda: 0,
    "is_initialized": lambda: False,
    "manual_seed": _nothing,
    "manual_seed_all": _nothing,
    "seed": _nothing,
    "seed_all": _nothing,
    "initial_seed": _no_cuda,
    "init": _no_cuda,
    "ipc_collect": _no_cuda,
    "current_device": _no_cuda,
    "get_arch_list": lambda: [],
    "empty_cache": _nothing,
    **{f.__name__: f for f in (
        memory_stats, memory_allocated, max_memory_allocated, memory_reserved, max_memory_reserved, memory_cached,
        max_memory_cached, memory_summary, reset_peak_memory_stats, reset_accumulated_memory_stats,
        reset_max_memory_allocated, reset_max_memory_cached, set_device, mem_get_info, get_device_capability,
        get_device_name, get_device_properties, current_stream, default_stream, synchronize, get_rng_state,
        set_rng_state, get_rng_state_all, set_rng_state_all, is_bf16_supported)},
}

ACCELERATOR = {
    "is_available": lambda: False,
    "current_accelerator": lambda check_available=False: None,
    "device_count": lambda: 0,
}

BACKENDS = {
    "mps": {"is_available": lambda: False, "is_built": lambda: False},
    "cudnn": {"is_available": lambda: False, "enabled": True},
    "cuda": {"is_built": lambda: False},
}
