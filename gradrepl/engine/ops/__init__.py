"""Every op gradrepl offers, declared once (registry.py), grouped by kind.

Importing this package installs each op's variants onto Tensor (methods, attributes,
Python operators, in-place methods) and builds the tables user code is given: the
`torch.*` functions, torch.nn.functional, the bare names of expression files. Nothing
else lists ops by hand.
"""
from gradrepl.engine.ops import (arrange, convert, elementwise, indexing, inplace, linalg, linalg_ext,  # noqa: F401
                                 loss, meta, nn, nn_extra, reduce, sampling, scatter, shape, sorting, special,
                                 breadth, breadth_special, breadth_torch, strided, pool3d, linalg_compat, ctc,
                                 fractional)
from gradrepl.engine import signatures
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


def inplace_names(op):
    """x.name_() and the in-place form of each method alias (x.swapaxes_, x.clip_)."""
    if op.inplace is None:
        return ()
    return (op.name + "_",) + tuple(a + "_" for a in op.methods[1:])


def _install():
    torch_functions, functional, methods = {}, {}, set()
    for op in REGISTRY.values():
        for name in op.methods:
            setattr(Tensor, name, property(op.forward) if op.attribute else op.forward)
        inplace = inplace_names(op)
        for name in inplace:
            setattr(Tensor, name, op.inplace)
        methods.update(op.methods, inplace)
        for dunder, fn in op.dunders.items():
            setattr(Tensor, dunder, fn)
        for name in op.functions:
            torch_functions[name] = _torch_function(op, name)
        if op.functional is not None:   # under the op's name, or the function's `functional_name`
            functional[getattr(op.functional, "functional_name", op.name)] = op.functional
    return torch_functions, functional, frozenset(methods)


TORCH_FUNCTIONS, FUNCTIONAL, METHODS = _install()
BARE = tuple(sorted(op.name for op in REGISTRY.values() if op.bare))
NOT_TENSOR_RESULTS = frozenset(n for op in REGISTRY.values() if not op.returns_tensor
                               for n in (*op.methods, *op.functions))

__all__ = ["REGISTRY", "SPECS", "TORCH_FUNCTIONS", "FUNCTIONAL", "METHODS", "BARE",
           "NOT_TENSOR_RESULTS"]
