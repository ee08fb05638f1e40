"""torch.autograd.forward_ad: dual levels, make_dual / unpack_dual, and tangents carried
through every op that records a backward rule. An op's tangent J @ t is computed from its
own backward rule by reverse mode twice (the rule run on a cotangent u that requires grad,
then differentiated with respect to u), so no op needs a forward formula of its own."""
import weakref
from types import FunctionType

import numpy as np

from gradrepl.engine.autograd import GRAD
from gradrepl.engine.backward import grad as autograd_grad
from gradrepl.engine import ops  # noqa: F401 (the op table, installed)
from gradrepl.engine.ops import inplace_names
from gradrepl.engine import signatures
from gradrepl.engine.ops.registry import REGISTRY
from gradrepl.engine.ops.shape import view_as
from gradrepl.engine.ops.sorting import NamedReturn
from gradrepl.engine.tensor import TANGENTS, Tensor, _new, tangent_of
from gradrepl.engine.util import pytype

LEVEL = [None]     # the current dual level (0) or None
BUSY = [False]     # computing a tangent: the ops that takes run without forward AD


def set_tangent(t, tangent):
    TANGENTS[id(t)] = (weakref.ref(t), tangent)


# ---------------------------------------------------------------- tangents through ops
# Every op's user-facing entry point (torch.*, torch.nn.functional.*; Tensor's methods and
# operators only while a dual level is entered) is a wrapper that, when an
# argument carries a tangent, runs the op on stand-ins that require grad and takes
# J @ t from the op's own backward by reverse mode twice (as torch.func.jvp does here).
# Calls made inside a wrapped op are not wrapped again (BUSY).

_SWAPPED = []        # (target, key, original) to restore at exit
_WRAPPERS = {}       # original function -> its wrapper
INPLACE_DUNDERS = frozenset(f"__i{n}__" for n in "add sub mul truediv floordiv mod pow and or xor lshift rshift "
                            "matmul".split())
NOT_WRAPPED_DUNDERS = INPLACE_DUNDERS | {"__setitem__", "__len__", "__iter__", "__bool__", "__float__", "__int__",
                                         "__index__", "__hash__", "__contains__", "__complex__", "__format__",
                                         "__repr__", "__str__", "__array__", "__reversed__", "__eq__", "__ne__",
                                         "__lt__", "__le__", "__gt__", "__ge__"}


_NAMES = {}          # original function -> the name it was wrapped under
# ops whose PyTorch forward formula multiplies a tangent by a primal (mul: other_t * self_p +
# self_t * other_p, an undefined tangent taken as zeros): their tangent has a graph (AddBackward0)
# whenever a primal requires grad, even where that term is zero
_BILINEAR = frozenset("mul multiply __mul__ __rmul__ mm matmul __matmul__ __rmatmul__ bmm mv addmm addmv baddbmm "
                      "addbmm addr linear bilinear".split())


def register_namespace(ns, names=None):
    """Functions in `ns` (those named, or all) carry tangents while a dual level is entered:
    they are wrapped once, here (user code's torch facade copies these dicts when it is
    built; outside a dual level a wrapper only calls through)."""
    for name in (names if names is not None else list(ns)):
        orig = ns.get(name)
        if isinstance(orig, FunctionType):
            ns[name] = wrapper(orig)
            _NAMES.setdefault(orig, name)
            signatures.register_alias(ns[name], orig)


def wrapper(fn):
    w = _WRAPPERS.get(fn)
    if w is None:
        def w(*args, **kwargs):
            if BUSY[0] or not TANGENTS:
                return fn(*args, **kwargs)
            return dual_call(fn, args, kwargs)
        w.__name__ = getattr(fn, "__name__", "fn")
        w.__qualname__ = getattr(fn, "__qualname__", w.__name__)
        w.__doc__ = getattr(fn, "__doc__", None)
        w.__wrapped__ = fn
        _WRAPPERS[fn] = w
        _WRAPPERS[w] = w
    return w


def inplace_wrapper(inplace, base):
    """An in-place op on or with a dual tensor: the values as the in-place op writes them,
    the tangent of the out-of-place op (self's tangent replaced, as PyTorch's)."""
    def w(self, *args, **kwargs):
        if BUSY[0] or not TANGENTS:
            return inplace(self, *args, **kwargs)
        duals = tangent_of(self) is not None or any(
            type(a) is Tensor and tangent_of(a) is not None for a in (*args, *kwargs.values()))
        if not duals:
            return inplace(self, *args, **kwargs)
        tangent = tangent_of(dual_call(base, (self, *args), kwargs))
        out = inplace(self, *args, **kwargs)
        if tangent is not None:
            set_tangent(self, tangent)
        return out
    w.__name__ = w.__qualname__ = getattr(inplace, "__name__", "inplace")
    w.__wrapped__ = inplace
    return w


def _install_wrappers():
    for op in REGISTRY.values():
        for name in op.methods:
            orig = Tensor.__dict__.get(name)
            if orig is None:
                continue
            if type(orig) is property:
                new = property(wrapper(orig.fget))
            elif isinstance(orig, FunctionType):
                new = wrapper(orig)
                _NAMES.setdefault(orig, name)
            else:
                continue
            _SWAPPED.append((Tensor, name, orig))
            setattr(Tensor, name, new)
        for name in op.dunders:
            orig = Tensor.__dict__.get(name)
            if not isinstance(orig, FunctionType):
                continue
            if name in INPLACE_DUNDERS:       # x += dual: __add__'s tangent, __iadd__'s values
                base = Tensor.__dict__.get("__" + name[3:])
                if isinstance(base, FunctionType):
                    _SWAPPED.append((Tensor, name, orig))
                    setattr(Tensor, name, inplace_wrapper(orig, base))
                continue
            if name in NOT_WRAPPED_DUNDERS:
                continue
            _NAMES.setdefault(orig, name)
            _SWAPPED.append((Tensor, name, orig))
            setattr(Tensor, name, wrapper(orig))
        for name in inplace_names(op):        # x.mul_(2) on a dual: the method's tangent, in place
            orig, base = Tensor.__dict__.get(name), Tensor.__dict__.get(name[:-1])
            if isinstance(orig, FunctionType) and isinstance(base, FunctionType):
                _SWAPPED.append((Tensor, name, orig))
                setattr(Tensor, name, inplace_wrapper(orig, base))


def _remove_wrappers():
    while _SWAPPED:
        target, name, orig = _SWAPPED.pop()
        if type(target) is dict:
            target[name] = orig
        else:
            setattr(target, name, orig)


def _substitute(a, subs, fakes):
    """A stand-in for a dual tensor argument: it requires grad so the op records its graph."""
    if type(a) is Tensor:
        t = tangent_of(a)
        if t is None:
            return a
        if a._fn is not None or a._rg:
            s = view_as(a, a)          # stays connected to a's own graph
        else:
            s = _new(a._a)
            s._ver = a._ver
            s._rg = True
            fakes.append(s)
        subs.append((a, s, t))
        return s
    if type(a) in (list, tuple):
        return type(a)(_substitute(x, subs, fakes) for x in a)
    return a


def _requires_grad(a):
    if type(a) is Tensor:
        return a._fn is not None or a._rg
    if type(a) in (list, tuple):
        return any(_requires_grad(x) for x in a)
    return False


def dual_call(fn, args, kwargs):
    subs, fakes = [], []
    prev = GRAD[0]
    BUSY[0] = True
    try:
        GRAD[0] = True
        args2 = tuple(_substitute(a, subs, fakes) for a in args)
        kwargs2 = {k: _substitute(v, subs, fakes) for k, v in kwargs.items()}
        GRAD[0] = prev
        if not subs:
            BUSY[0] = False
            return fn(*args, **kwargs)
        keep = prev and (any(_requires_grad(a) for a in args) or any(_requires_grad(v) for v in kwargs.values()))
        GRAD[0] = True
        out = fn(*args2, **kwargs2)
        back = {id(s): a for a, s, _ in subs}
        single = type(out) is Tensor
        items = [out] if single else list(out) if isinstance(out, (tuple, list)) else None
        if items is None:
            return out
        fresh = []
        for k, o in enumerate(items):
            if type(o) is Tensor:
                if id(o) in back and back[id(o)] is not None and o is not back[id(o)]:
                    items[k] = back[id(o)]            # the op gave back its argument itself
                elif not any(o is a for a, _, _ in subs) and (o._fn is not None or o._rg) \
                        and o._a.dtype.kind in "fc":
                    fresh.append(o)
        if fresh:
            us = [_new(np.zeros_like(o._a)) for o in fresh]
            for u in us:
                u._rg = True
            xs = [s for _, s, _ in subs]
            gs = autograd_grad(fresh, xs, us, retain_graph=True, create_graph=True, allow_unused=True)
            total = None
            for g, (_, _, t) in zip(gs, subs):
                if g is not None:
                    term = (g * t).sum()
                    total = term if total is None else total + term
            # a tangent keeps its own graph when the primal's does (PyTorch's tangents are
            # differentiable: tangent=tensor(..., grad_fn=<AddBackward0>))
            js = (autograd_grad([total], us, create_graph=keep, allow_unused=True)
                  if total is not None and total.requires_grad else (None,) * len(us))
            bilinear = keep and _NAMES.get(fn) in _BILINEAR
            for o, j in zip(fresh, js):
                if j is None:
                    j = _new(np.zeros_like(o._a))
                elif not (keep and j.requires_grad):
                    j = _new(j._a)
                if bilinear and not j.requires_grad:
                    j = _with_primal_graph(j, args, kwargs)
                set_tangent(o, j)
        for s in fakes:
            s._rg = False
        if not keep:
            for o in items:
                if type(o) is Tensor and not any(o is a for a, _, _ in subs):
                    o._fn = None
        if single:
            return items[0]
        return type(out)(items)
    finally:
        GRAD[0] = prev
        BUSY[0] = False


def _with_primal_graph(j, args, kwargs):
    """j plus a zero that depends on the primal that requires grad: the graph (and the
    AddBackward0) of PyTorch's tangent, where the term that reads the primal is zero."""
    for a in (*args, *kwargs.values()):
        if type(a) is Tensor and (a._fn is not None or a._rg) and a._a.dtype.kind in "fc":
            zero = (a * 0).sum() * 0
            return j + zero
    return j


class dual_level:
    """with fwAD.dual_level(): the scope of dual tensors; their tangents go when it exits."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False

    def __repr__(self):
        return "<torch.autograd.forward_ad.dual_level object>"


def enter_dual_level():
    if LEVEL[0] is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    LEVEL[0] = 0
    _install_wrappers()
    return 0


def exit_dual_level(*, level=None):
    LEVEL[0] = None
    _remove_wrappers()
    TANGENTS.clear()


def make_dual(tensor, tangent, *, level=None):
    if type(tensor) is not Tensor:
        raise TypeError(f"make_dual(): argument 'primal' (position 1) must be Tensor, not {pytype(tensor)}")
    if type(tangent) is not Tensor:
        raise TypeError(f"make_dual(): argument 'tangent' (position 2) must be Tensor, not {pytype(tangent)}")
    if LEVEL[0] is None:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if tensor._a.dtype.kind not in "fc":
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if tangent._a.dtype.kind not in "fc":
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    if tangent._a.shape != tensor._a.shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor._a.shape)} while the "
                           f"given forward gradient is of size {list(tangent._a.shape)}.")
    BUSY[0] = True
    try:
        dual = view_as(tensor, tensor)
    finally:
        BUSY[0] = False
    if tangent._a.strides != tensor._a.strides or tangent._a.dtype != tensor._a.dtype:
        # a tangent of another layout is copied into one laid out as the primal (as PyTorch)
        tangent = _new(np.array(tangent._a, dtype=tensor._a.dtype, order="C"))
    set_tangent(dual, tangent)
    return dual


class UnpackedDualTensor(NamedReturn):
    """fwAD.unpack_dual's namedtuple (primal, tangent)."""

    __slots__ = ()
    _name = "UnpackedDualTensor"
    _fields = ("primal", "tangent")

    @property
    def primal(self):
        return self[0]

    @property
    def tangent(self):
        return self[1]

    def __repr__(self):
        return f"UnpackedDualTensor(primal={self[0]!r}, tangent={self[1]!r})"


def unpack_dual(tensor, *, level=None):
    if type(tensor) is not Tensor:
        return UnpackedDualTensor((tensor, None))
    if LEVEL[0] is None:
        return UnpackedDualTensor((tensor, None))
    tangent = tangent_of(tensor) if TANGENTS else None    # inside a level the primal is a view
    BUSY[0] = True
    try:
        primal = view_as(tensor, tensor)
    finally:
        BUSY[0] = False
    return UnpackedDualTensor((primal, tangent))


CONTEXT_TYPES = {dual_level: "torch.autograd.forward_ad.dual_level"}

FORWARD_AD_NS = {
    "dual_level": dual_level,
    "make_dual": make_dual,
    "unpack_dual": unpack_dual,
    "enter_dual_level": enter_dual_level,
    "exit_dual_level": exit_dual_level,
    "UnpackedDualTensor": UnpackedDualTensor,
}
