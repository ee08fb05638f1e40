"""The meta device: tensors that have a shape, a dtype and autograd state but no data.

A meta tensor is an ordinary Tensor backed by zeros and listed in devices.META. Every op
runs on those zeros in *meta mode* (`run`): the tensors created meanwhile are meta too
and the random generator is put back afterwards (PyTorch's meta kernels draw nothing).
Meta mode starts where an op gets a meta tensor: the interpreter's call (`needs` below:
a meta argument, `device="meta"`, a default device of meta, a module with meta
parameters) and Tensor's operators (installed on first use, `install_operators`).
Reading values (`item`, `tolist`, printing digits) raises PyTorch's errors.
"""
import numpy as np

from gradrepl.engine import devices, rng
from gradrepl.engine.devices import META, MODE, NO_DATA, NO_ITEM, NO_NUMPY, is_meta  # noqa: F401 (NO_*: callers)
from gradrepl.engine.ops.registry import REGISTRY
from gradrepl.engine.tensor import Tensor


_INSTALLED = [False]


def run(fn, args, kwargs):
    """fn(*args, **kwargs) in meta mode."""
    if not _INSTALLED[0]:
        install_operators()
    if MODE[0]:
        return fn(*args, **kwargs)
    state = rng.default_generator.get_state()
    MODE[0] = 1
    try:
        return fn(*args, **kwargs)
    finally:
        MODE[0] = 0
        rng.default_generator.set_state(state)


def _tensors(args, kwargs):
    for a in args:
        if type(a) is Tensor:
            yield a
        elif type(a) in (list, tuple):
            for b in a:
                if type(b) is Tensor:
                    yield b
    if kwargs:
        for a in kwargs.values():
            if type(a) is Tensor:
                yield a


def check_devices(tensors):
    """PyTorch's refusal to mix a meta tensor with a CPU one (a 0-dim CPU tensor is a scalar)."""
    first = None
    for t in tensors:
        m = is_meta(t)
        if first is None:
            first = m
        elif m != first and (m or t._a.ndim):
            raise RuntimeError(f"Tensor on device {'meta' if m else 'cpu'} is not on the expected device "
                               f"{'meta' if first else 'cpu'}!")


def _module_is_meta(fn):
    params = getattr(fn, "_parameters", None)
    if type(params) is not dict and params.__class__.__name__ != "OrderedDict":
        return False
    try:
        return any(is_meta(p) for p in fn.parameters())
    except Exception:   # noqa: BLE001 - not a module after all
        return False


def needs(fn, args, kwargs):
    """Does the interpreter's call fn(*args, **kwargs) run in meta mode? Raises PyTorch's
    error for an op mixing meta and CPU tensors."""
    if kwargs and "device" in kwargs:
        d = kwargs["device"]
        if (type(d) is str and d.partition(":")[0] == "meta") or (type(d) is devices.Device and d.type == "meta"):
            return True
    active = devices.ACTIVE[0]
    if active is not None and active.type == "meta":
        return True
    if not META:
        return False
    owner = getattr(fn, "__self__", None)
    if owner is None and "method" in (type(fn).__name__, type(fn).__base__.__name__):   # lang.classes.method
        owner = getattr(fn, "obj", None)
        fn = getattr(fn, "fn", fn)
    if type(owner) is Tensor:
        tensors = [owner, *_tensors(args, kwargs)]
    else:
        tensors = list(_tensors(args, kwargs))
    hit = any(is_meta(t) for t in tensors)
    module = getattr(fn, "__module__", None) or ""
    if module.startswith("gradrepl.engine") or type(owner) is Tensor:
        if hit:
            check_devices(tensors)
        return hit
    if hit:
        return True
    if _module_is_meta(fn):
        check_devices(tensors[:1] + [next(p for p in fn.parameters() if is_meta(p))] if tensors else [])
        return True
    return False


# ---------------------------------------------------------------- Tensor's operators
_OPERATORS = ("__add__", "__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__mul__", "__rmul__", "__imul__",
              "__truediv__", "__rtruediv__", "__itruediv__", "__floordiv__", "__rfloordiv__", "__ifloordiv__",
              "__mod__", "__rmod__", "__imod__", "__pow__", "__rpow__", "__ipow__", "__matmul__", "__rmatmul__",
              "__imatmul__", "__and__", "__rand__", "__iand__", "__or__", "__ror__", "__ior__", "__xor__",
              "__rxor__", "__ixor__", "__lshift__", "__rlshift__", "__ilshift__", "__rshift__", "__rrshift__",
              "__irshift__", "__neg__", "__pos__", "__abs__", "__invert__", "__lt__", "__le__", "__gt__", "__ge__",
              "__eq__", "__ne__", "__getitem__", "__setitem__")


def _operator(f):
    def op(self, *args):
        if META and (is_meta(self) or any(type(a) is Tensor and is_meta(a) for a in args)):
            check_devices([self, *[a for a in args if type(a) is Tensor]])
            return run(f, (self, *args), {})
        return f(self, *args)
    op.__name__ = f.__name__
    op.__wrapped__ = f
    return op


def _attribute(prop):
    def get(self):
        if META and is_meta(self):
            return run(prop.fget, (self,), {})
        return prop.fget(self)
    return property(get)


def install_operators():
    """Tensor's operators and attribute ops (`x.T`) learn meta mode, once a meta tensor exists
    (before that they cost nothing extra)."""
    _INSTALLED[0] = True
    for name in _OPERATORS:
        f = Tensor.__dict__.get(name)
        if f is not None and callable(f):
            setattr(Tensor, name, _operator(f))
    for op in REGISTRY.values():
        if op.attribute:
            for name in op.methods:
                prop = Tensor.__dict__.get(name)
                if isinstance(prop, property):
                    setattr(Tensor, name, _attribute(prop))


def to_meta(t, result, rule):
    """`x.to("meta")` of a CPU tensor: a meta copy (ToCopyBackward0 when x needs a gradient)."""
    return run(lambda: result(np.zeros_like(t._a), rule, (t,) if t.dtype.is_floating_point else (), (), t.dtype),
               (), {})
