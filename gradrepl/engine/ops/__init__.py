"""Every op gradrepl offers, declared once (registry.py), grouped by kind.

Importing this package installs each op's variants onto Tensor (methods, attributes,
Python operators, in-place methods) and builds the tables user code is given: the
`torch.*` functions, torch.nn.functional, the bare names of expression files. Nothing
else lists ops by hand.
"""
from gradrepl.engine.ops import (arrange, convert, elementwise, indexing, inplace, linalg, linalg_ext,  # noqa: F401
                                 loss, meta, nn, nn_extra, reduce, sampling, scatter, shape, sorting, special,
                                 breadth)
from gradrepl.engine.ops.common import as_tensor
from gradrepl.engine.ops.registry import REGISTRY, SPECS
from gradrepl.engine.tensor import Tensor
from gradrepl.engine.util import got_args, pytype


# torch.NAME(input, ...) with a number as `input`: PyTorch's parser takes one for these (allowed
# numbers as tensors, or a `Scalar self` overload) and refuses it for every other op, naming the
# argument for a function of one signature; these have several (recorded from PyTorch 2.13).
_NUMBER_INPUT = frozenset("""add sub subtract mul multiply div divide true_divide pow remainder float_power xlogy
bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift""".split())
_OVERLOADED = frozenset("""addmm all any baddbmm bmm clamp clamp_max clamp_min clip copysign dsplit eq fmod
floor_divide ge greater greater_equal gt hsplit index_fill le lerp less less_equal lt mm moveaxis movedim narrow ne
not_equal scatter std tensor_split var vsplit""".split())
_OWN_CHECKS = frozenset("norm split repeat_interleave addbmm addcdiv addcmul addmv addr".split())


def _not_a_tensor(name, input, args, kwargs):
    if name in _OVERLOADED:
        return TypeError(f"{name}() received an invalid combination of arguments - got "
                         f"({got_args((input, *args), kwargs)}), but expected one of:")
    return TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {pytype(input)}")


def _torch_function(op, name):
    """torch.NAME(input, ...): the method's forward, its first argument a tensor (or a number
    where PyTorch takes one)."""
    if op.torch_forward is not None:
        return op.torch_forward
    forward = op.forward
    if not op.methods:   # a function only (torch.cat, torch.where): the forward is the function
        return forward
    lenient = name in _NUMBER_INPUT or name in _OWN_CHECKS

    def fn(input, *args, **kwargs):
        if type(input) is not Tensor:
            if not lenient:
                raise _not_a_tensor(name, input, args, kwargs)
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
    torch_functions, functional = {}, {}
    for op in REGISTRY.values():
        for name in op.methods:
            setattr(Tensor, name, property(op.forward) if op.attribute else op.forward)
        for name in inplace_names(op):
            setattr(Tensor, name, op.inplace)
        for dunder, fn in op.dunders.items():
            setattr(Tensor, dunder, fn)
        for name in op.functions:
            torch_functions[name] = _torch_function(op, name)
        if op.functional is not None:   # under the op's name, or the function's `functional_name`
            functional[getattr(op.functional, "functional_name", op.name)] = op.functional
    return torch_functions, functional


TORCH_FUNCTIONS, FUNCTIONAL = _install()
METHODS = frozenset(n for op in REGISTRY.values() for n in op.methods) | frozenset(
    n for op in REGISTRY.values() for n in inplace_names(op))
BARE = tuple(sorted(op.name for op in REGISTRY.values() if op.bare))
NOT_TENSOR_RESULTS = frozenset(n for op in REGISTRY.values() if not op.returns_tensor
                               for n in (*op.methods, *op.functions))

__all__ = ["REGISTRY", "SPECS", "TORCH_FUNCTIONS", "FUNCTIONAL", "METHODS", "BARE",
           "NOT_TENSOR_RESULTS"]
