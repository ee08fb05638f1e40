"""torch.save / torch.load without files: the session keeps what was saved, keyed by the path.

gradrepl never writes to the disk (the sandbox rule), yet tutorials save a state_dict and load
it back a few lines later. `Files` is one session's store: `torch.save(obj, 'model.pth')`
keeps a deep copy of obj (tensors copied, as pickling them does), `torch.load('model.pth')`
hands out another deep copy (each load is independent, as reading a file twice is). A path
never saved raises PyTorch's FileNotFoundError. The copies count against the live-memory
budget (they live in the worker's memory) and the store as a whole is capped by it too.

What pickling keeps, this keeps: a tensor's values, dtype, shape and requires_grad (not its
grad or graph), a Parameter's mark, dict/OrderedDict/list/tuple/set structure, the same
object saved twice in one call loaded as one object. Views saved together do not share
storage after load here (PyTorch keeps the shared storage). `weights_only=True` (PyTorch's
default) refuses what PyTorch's weights-only unpickler refuses: modules, optimizers and the
learner's own objects (save a state_dict, or load with weights_only=False).
"""
import posixpath
from collections import OrderedDict

import numpy as np

from gradrepl.limits import LIMITS, check_memory
from gradrepl.nn import backend as B
from gradrepl.nn.module import Hooks, LibraryMeta, is_parameter, mark_parameter


class UnpicklingError(Exception):
    """pickle's UnpicklingError, which torch.load raises when weights_only refuses a type."""


class PicklingError(Exception):
    """pickle's PicklingError (a lambda cannot be saved)."""


_ATOMS = (type(None), bool, int, float, complex, str, bytes)
_CONTAINERS = (dict, OrderedDict, list, tuple, set, frozenset)


def _global_name(obj):
    """What the weights-only unpickler names the class of obj in its refusal."""
    t = type(obj)
    if isinstance(t, LibraryMeta):
        return repr(t)[8:-2]
    if t.__module__ == "builtins" or t.__name__ in ("slice", "range"):
        return t.__name__
    return f"__main__.{getattr(obj, 'name', None) or t.__name__}" if t.__name__ == "function" \
        else f"__main__.{t.__name__}"


def _weights_only_refusal(name):
    return UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, do those steps "
        "only if you trust the source of the checkpoint. \n\t(1) In PyTorch 2.6, we changed the default value of "
        "the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with "
        "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it "
        "only if you got the file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` "
        "please check the recommended steps in the following error message.\n\tWeightsUnpickler error: "
        f"Unsupported global: GLOBAL {name} was not an allowed global by default. Please use "
        f"`torch.serialization.add_safe_globals([{name}])` or the `torch.serialization.safe_globals([{name}])` "
        "context manager to allowlist this global if you trust this class/function.\n\nCheck the documentation "
        "of torch.load to learn more about types accepted by default with weights_only "
        "https://pytorch.org/docs/stable/generated/torch.load.html.")


def _is_plain_value(obj):
    """dtypes, devices, torch.Size and the like: immutable engine values, kept as they are."""
    return type(obj).__name__ in ("DType", "Device", "Size")


class _Copier:
    """A deep copy as pickling and unpickling make it: one memo for the whole call."""

    MAX_DEPTH = 500      # pickle's own limit is the recursion limit: nesting this deep fails there too

    def __init__(self, weights_only=False, saving=False):
        self.memo = {}
        self.weights_only = weights_only
        self.saving = saving
        self.nbytes = 0
        self.depth = 0

    def copy(self, obj):
        self.depth += 1
        try:
            if self.depth > self.MAX_DEPTH:
                raise RecursionError("maximum recursion depth exceeded while pickling an object")
            return self._copy(obj)
        finally:
            self.depth -= 1

    def _copy(self, obj):
        if isinstance(obj, _ATOMS) and type(obj) in _ATOMS:
            return obj
        key = id(obj)
        if key in self.memo:
            return self.memo[key]
        if B.is_tensor(obj):
            return self._tensor(obj)
        if _is_plain_value(obj):
            return obj
        t = type(obj)
        if t in _CONTAINERS:
            return self._container(obj)
        if self.weights_only:
            raise _weights_only_refusal(_global_name(obj))
        if self.saving and t.__name__ == "function" and getattr(obj, "name", None) == "<lambda>":
            raise PicklingError(f"Can't pickle {obj!r}: attribute lookup <lambda> on __main__ failed")
        if t is Hooks:
            new = Hooks()
            new.items = list(obj.items)
            self.memo[key] = new
            return new
        if isinstance(t, LibraryMeta) or getattr(t, "_gradrepl_user", False) is True:
            return self._object(obj)
        return obj           # functions and classes: pickled by reference, loaded as the same object

    def _tensor(self, t):
        a = B.array(t)
        self.nbytes += a.nbytes
        if a.nbytes > (1 << 24):
            check_memory(a.nbytes)
        new = B.wrap(np.array(a, copy=True))
        if t.requires_grad:
            B.set_requires_grad(new, True)
        if is_parameter(t):
            mark_parameter(new)
        self.memo[id(t)] = new
        return new

    def _container(self, obj):
        t = type(obj)
        if t in (dict, OrderedDict):
            new = t()
            self.memo[id(obj)] = new
            for k, v in obj.items():
                new[self.copy(k)] = self.copy(v)
            return new
        if t is list:
            new = []
            self.memo[id(obj)] = new
            new.extend(self.copy(v) for v in obj)
            return new
        new = t(self.copy(v) for v in obj)
        self.memo[id(obj)] = new
        return new

    def _object(self, obj):
        try:
            new = object.__new__(type(obj))
        except TypeError:       # a tuple-based record (load_state_dict's result): immutable, kept
            return obj
        self.memo[id(obj)] = new
        state = {k: self.copy(v) for k, v in obj.__dict__.items()}
        new.__dict__.update(state)
        return new


def _normalized(path):
    return posixpath.normpath(path) if path else path


class Files:
    """One session's saved objects, by path."""

    def __init__(self):
        self.files = {}        # normalized path -> (copy, bytes of tensor data)

    def total(self):
        return sum(n for _, n in self.files.values())

    def save(self, obj, f, pickle_module=None, pickle_protocol=2):
        if not isinstance(f, str):
            raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
        if f in ("", ".", "..") or f.endswith("/"):
            raise RuntimeError(f"[enforce fail at inline_container.cc:720] . invalid file name: {f}")
        copier = _Copier(saving=True)
        kept = copier.copy(obj)
        path = _normalized(f)
        old = self.files.pop(path, (None, 0))
        if self.total() + copier.nbytes > LIMITS.max_bytes:
            self.files[path] = old
            from gradrepl.errors import BudgetExceeded
            raise BudgetExceeded(
                "memory", f"tensor memory limit exceeded: the files saved in this session would hold more than "
                f"{LIMITS.max_bytes} bytes of tensor data (raise it with --max-memory)", "--max-memory")
        self.files[path] = (kept, copier.nbytes)

    def load(self, f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
        if not isinstance(f, str):
            raise AttributeError(f"'{type(f).__name__}' object has no attribute 'seek'. You can only torch.load "
                                 "from a file that is seekable. Please pre-load the data into a buffer like "
                                 "io.BytesIO and try to load from it instead.")
        entry = self.files.get(_normalized(f))
        if entry is None:
            raise FileNotFoundError(f"[Errno 2] No such file or directory: {f!r}")
        if weights_only is None:
            weights_only = pickle_module is None
        elif weights_only and pickle_module is not None:
            raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
        if B.is_cuda_device(map_location):
            raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                               "False. If you are running on a CPU-only machine, please use torch.load with "
                               "map_location=torch.device('cpu') to map your storages to the CPU.")
        return _Copier(weights_only=bool(weights_only)).copy(entry[0])
