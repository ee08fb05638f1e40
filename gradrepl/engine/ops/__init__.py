"""Every op gradrepl offers, declared once (registry.py), grouped by kind.

Importing this package installs each op's variants onto Tensor (methods, attributes,
Python operators, in-place methods) and builds the tables user code is given: the
`torch.*` functions, torch.nn.functional, the bare names of expression files. Nothing
else lists ops by hand.
"""
from gradrepl.engine.ops import (arrange, convert, elementwise, indexing, inplace, linalg, linalg_ext,  # noqa: F401
                                 loss, meta, nn, nn_extra, reduce, sampling, scatter, shape, sorting, special,
                                 breadth, breadth_special, breadth_torch, strided, pool3d, linalg_compat, ctc,
                                 fractional, cplx, fft)
from gradrepl.engine import signatures
from gradrepl.engine.autograd import GRAD
from gradrepl.engine.ops.common import as_tensor
from gradrepl.engine.ops.registry import REGISTRY, SPECS
from gradrepl.engine.tensor import Tensor


def _torch_function(op, name):
    """torch.NAME(input, ...): the method's forward with its first argument made a tensor."""
    if op.torch_forward is not None:
        return op.torch_forward
    forward = op.forward
    if not op.methods:   # a function only (torch.cat, torch.where): the forward is the function
        return forward

    def fn(input, *args, **kwargs):
        if type(input) is not Tensor:
            if name not in signatures.NUMBERS_AS_TENSORS:      # torch.exp(1.0): PyTorch's TypeError
                wrong = signatures.check(name, "function", (input, *args), kwargs)
                if wrong is not None:
                    raise wrong
            input = as_tensor(input)
        return forward(input, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    fn.__wrapped__ = forward   # its parameters, for completion (inspect.signature follows it)
    return fn


def _complex_arg(args, kwargs):
    """The first complex tensor among a call's arguments (lists of tensors too), or None."""
    for a in args:
        if type(a) is Tensor:
            if a._a.dtype.kind == "c":
                return a
        elif type(a) in (list, tuple):
            for b in a:
                if type(b) is Tensor and b._a.dtype.kind == "c":
                    return b
    for a in kwargs.values():
        if type(a) is Tensor and a._a.dtype.kind == "c":
            return a
    return None


def _wrapping(guarded, fn, name):
    """guarded, named as the function it wraps (the profiler and messages look through it)."""
    guarded.__name__ = getattr(fn, "__name__", name)
    guarded.__qualname__ = getattr(fn, "__qualname__", name)
    guarded.__wrapped__ = fn
    guarded.complex_guard = True      # the profiler names the op by the function it wraps
    if hasattr(fn, "functional_name"):
        guarded.functional_name = fn.functional_name
    return guarded


def _complex_guard(fn, name, impl=None):
    """fn, refusing complex tensor arguments (cplx.fence_error) or routing them to impl."""
    def guarded(*args, **kwargs):
        t = _complex_arg(args, kwargs)
        if t is not None:
            if impl is None:
                raise cplx.fence_error(name, t)
            return impl(*args, **kwargs)
        return fn(*args, **kwargs)
    return _wrapping(guarded, fn, name)


def _grad_guard(fn, name):
    """fn, refusing complex tensor arguments that require grad (cplx.GRAD_FENCED)."""
    def guarded(*args, **kwargs):
        t = _complex_arg(args, kwargs)
        if t is not None and GRAD[0]:
            for a in args:
                if type(a) is Tensor and a.requires_grad:
                    raise cplx.grad_fence(name)
        return fn(*args, **kwargs)
    return _wrapping(guarded, fn, name)


# the code of the guards' wrappers: gradrepl.lang's error messages look through their frames
GUARD_CODES = frozenset((_complex_guard(len, "").__code__, _grad_guard(len, "").__code__))


def _guard(op, fn, name):
    entry = cplx.COMPLEX.get(op.name)
    if fn is None or op.kind == "fft":      # torch.fft takes complex tensors itself
        return fn
    if entry is cplx.PASS:
        return _grad_guard(fn, name) if op.name in cplx.GRAD_FENCED else fn
    if entry is cplx.CONJ_AFTER:
        return _complex_guard(fn, name, lambda *args, **kwargs: cplx.conj(fn(*args, **kwargs)))
    return _complex_guard(fn, name, entry)


def inplace_names(op):
    """x.name_() and the in-place form of each method alias (x.swapaxes_, x.clip_)."""
    if op.inplace is None:
        return ()
    return (op.name + "_",) + tuple(a + "_" for a in op.methods[1:])


def _install():
    torch_functions, functional, methods = {}, {}, set()
    for op in REGISTRY.values():
        orig = op.forward
        forward = op.forward = _guard(op, orig, op.name)   # later installs (spellings) read op.forward
        if op.torch_forward is not None:
            op.torch_forward = _guard(op, op.torch_forward, op.name)
        if op.functional is not None:
            op.functional = forward if op.functional is orig else _guard(op, op.functional, op.name)
        for name in op.methods:
            setattr(Tensor, name, property(forward) if op.attribute else forward)
        inplace = inplace_names(op)
        for name in inplace:
            if op.name in cplx.INPLACE_FENCED:
                refuse = cplx.INPLACE_FENCED[op.name]
                fn = _complex_guard(op.inplace, name, lambda *a, _text=refuse, **k: cplx.refuse(_text))
            elif cplx.COMPLEX.get(op.name) is cplx.PASS:
                fn = op.inplace
            else:
                fn = _complex_guard(op.inplace, name)
            setattr(Tensor, name, fn)
        methods.update(op.methods, inplace)
        for dunder, fn in op.dunders.items():
            if dunder in cplx.DUNDERS:
                fn = _complex_guard(fn, op.name, cplx.DUNDERS[dunder])
            else:
                fn = _guard(op, fn, op.name)
            setattr(Tensor, dunder, fn)
        for name in op.functions:
            torch_functions[name] = _torch_function(op, name)
        if op.functional is not None:   # under the op's name, or the function's `functional_name`
            functional[getattr(op.functional, "functional_name", op.name)] = op.functional
    return torch_functions, functional, frozenset(methods)


TORCH_FUNCTIONS, FUNCTIONAL, METHODS = _install()


def _setter(part):
    """`x.real = v`, `x.imag += 1`: PyTorch's setters copy the value into the view."""
    def set_part(self, value):
        getattr(self, part).copy_(value)
    return set_part


Tensor.real = property(Tensor.real.fget, _setter("real"))
Tensor.imag = property(Tensor.imag.fget, _setter("imag"))
BARE = tuple(sorted(op.name for op in REGISTRY.values() if op.bare))
NOT_TENSOR_RESULTS = frozenset(n for op in REGISTRY.values() if not op.returns_tensor
                               for n in (*op.methods, *op.functions))

__all__ = ["REGISTRY", "SPECS", "TORCH_FUNCTIONS", "FUNCTIONAL", "METHODS", "BARE",
           "NOT_TENSOR_RESULTS", "GUARD_CODES"]
