"""torch.save / torch.load on files that live in the session's memory.

gradrepl writes no files: `torch.save(obj, "model.pth")` keeps a copy of obj under that
name for the rest of the session and `torch.load("model.pth")` hands back a fresh copy,
so the tutorials' save-then-load steps run as in PyTorch. What is kept is what pickling
would keep: tensors as new leaf tensors (values, dtype, requires_grad; no .grad, no
history), Parameters as Parameters, containers and modules copied all the way down; a
tensor reached twice stays one tensor. `torch.load` refuses what PyTorch's default
`weights_only=True` refuses (a whole Module), with PyTorch's message.
"""
import pickle
import posixpath
from collections import OrderedDict

from gradrepl.engine import tensor as T
from gradrepl.engine.api import Size
from gradrepl.engine.devices import Device
from gradrepl.engine.dtypes import DType
from gradrepl.nn import backend as B
from gradrepl.nn.module import Module, is_parameter, mark_parameter

_ATOMS = (int, float, bool, complex, str, bytes, type(None), Size, DType, Device)
_CONTAINERS = (dict, OrderedDict, list, tuple)

WEIGHTS_ONLY_FAILED = ("Weights only load failed. This file can still be loaded, to do so you have two options, "
                       "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m.\n"
                       "\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in "
                       "`torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to "
                       "`False` will likely succeed, but it can result in arbitrary code execution. Do it only if "
                       "you got the file from a trusted source.\n"
                       "\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps "
                       "in the following error message.\n"
                       "\tWeightsUnpickler error: Unsupported global: GLOBAL {name} was not an allowed global by "
                       "default.")


def _copy(obj, memo):
    key = id(obj)
    if key in memo:
        return memo[key]
    if B.is_tensor(obj):
        new = T._new(B.array(obj).copy())
        B.set_requires_grad(new, obj.requires_grad)
        if is_parameter(obj):
            mark_parameter(new)
        memo[key] = new
        return new
    kind = type(obj)
    if isinstance(obj, _ATOMS):
        return obj
    if kind in (dict, OrderedDict):
        new = memo[key] = kind()
        for k, v in obj.items():
            new[_copy(k, memo)] = _copy(v, memo)
        return new
    if kind is list:
        new = memo[key] = []
        new.extend(_copy(v, memo) for v in obj)
        return new
    if kind is tuple:
        return tuple(_copy(v, memo) for v in obj)
    if isinstance(obj, Module):
        new = memo[key] = object.__new__(kind)
        for k, v in obj.__dict__.items():
            new.__dict__[k] = _copy(v, memo)
        return new
    return obj          # functions, hooks, optimizers, ...: shared, not copied


def _unsupported(obj):
    """The first object weights_only=True would refuse, or None."""
    if B.is_tensor(obj) or isinstance(obj, _ATOMS):
        return None
    if type(obj) in _CONTAINERS:
        for item in (obj.items() if isinstance(obj, dict) else obj):
            bad = _unsupported(item)
            if bad is not None:
                return bad
        return None
    return obj


def _global_name(obj):
    return type(obj).__dict__.get("torch_path") or f"__main__.{type(obj).__name__}"


def _key(f):
    return posixpath.normpath(f)


def save(files, obj, f):
    """torch.save(obj, f) into `files`, one session's in-memory files."""
    if not isinstance(f, str):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
    files[_key(f)] = _copy(obj, {})


def load(files, f, weights_only=None):
    """torch.load(f) from `files`: a fresh copy of what was saved."""
    if not isinstance(f, str):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'read' attribute")
    try:
        kept = files[_key(f)]
    except KeyError:
        raise FileNotFoundError(f"[Errno 2] No such file or directory: '{f}'") from None
    if weights_only is None or weights_only:
        bad = _unsupported(kept)
        if bad is not None:
            raise pickle.UnpicklingError(WEIGHTS_ONLY_FAILED.format(name=_global_name(bad)))
    return _copy(kept, {})
