"""The one place torch.nn, torch.optim and torch.utils.data touch the engine's internals.

Everything else in gradrepl.nn / optim / data works with Tensors through their public
methods and the `torch` namespace (gradrepl.engine.api.TORCH), as PyTorch's own Python
code does; the few things PyTorch does in C++ (filling a tensor from the generator under
no_grad, sharing storage for a Parameter) are here.
"""
import numpy as np

from gradrepl.engine import api
from gradrepl.engine.amp import POLICIES as AUTOCAST_POLICIES, autocast_op  # noqa: F401 (nn.functional's losses)
from gradrepl.engine import autograd as A
from gradrepl.engine import dtypes as D
from gradrepl.engine import metadevice, rng, signatures
from gradrepl.engine.devices import check_factory as check_device  # noqa: F401 (a layer's device=)
from gradrepl.engine import tensor as T
from gradrepl.engine.ops.nn import div_scalar, rnn_layer_output  # noqa: F401 (ATen's C++ composites)
from gradrepl.engine.tensor import PARAMETERS, UNINITIALIZED, Tensor
from gradrepl.engine.util import legacy_scalar  # noqa: F401 (ScalarType names in messages)
from gradrepl.engine.util import warn as engine_warn

TORCH = api.TORCH


def register_functional(namespace):
    """torch.nn.functional's functions, for PyTorch's message when one is called with a wrong type."""
    signatures.register_functions(namespace, "functional")


def register_forward_ad(namespace):
    """torch.nn.functional's functions carry tangents inside a forward-AD dual level."""
    api.FAD.register_namespace(namespace)


def is_tensor(x):
    return type(x) is Tensor


def array(t):
    """The NumPy array behind a tensor (host code only, never handed to user code)."""
    return t._a


def wrap(arr):
    return T.wrap(arr)


def share(t):
    """A new leaf tensor object on the same data and version counter (Tensor._make_subclass)."""
    new = T._new(t._a)
    new._ver = t._ver
    return new


def set_requires_grad(t, flag):
    if flag and t._a.dtype.kind not in "fV":
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    t._rg = bool(flag)


def fill_(t, values):
    """Write `values` into t in place without recording (init functions run under no_grad)."""
    t._a[...] = values
    t._ver[0] += 1
    return t


def generator(gen=None):
    return rng.default_generator if gen is None else gen


def uniform_(t, low, high, gen=None):
    if low > high:      # nn.init.uniform_ calls tensor.uniform_(a, b), which checks
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={low} > to={high}")
    a = t._a
    if metadevice.any_dataless(t):      # a meta tensor without data draws nothing
        return t
    return fill_(t, generator(gen).uniform(a.shape, low, high, a.dtype))


def normal_(t, mean, std, gen=None):
    a = t._a
    if metadevice.any_dataless(t):
        return t
    return fill_(t, np.asarray(generator(gen).normal(a.shape, mean, std, a.dtype), a.dtype).reshape(a.shape))


def randperm(n, gen=None):
    return TORCH["randperm"](n, generator=gen)


def grad_enabled():
    return api.grad_enabled()


def backward_hook_function(backward):
    """torch.nn.modules._functions.BackwardHookFunction: the identity on tensors, whose node
    (BackwardHookFunctionBackward) passes its gradients through `backward(grads) -> grads`;
    the tensors that do not require grad stay out of the graph."""
    def forward(ctx, *args):
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args
    return api.CustomFunction("BackwardHookFunction", forward, lambda ctx, *grads: backward(grads))


def warn(category, message):
    engine_warn(category, message)


RemovableHandle = A.RemovableHandle


def is_dtype(x):
    return type(x) is D.DType


def is_cuda_device(x):
    """'cuda', 'cuda:0' or a torch.device of type cuda (this is a CPU-only PyTorch)."""
    if isinstance(x, str):
        return x.split(":")[0] == "cuda"
    return getattr(type(x), "__name__", "") == "Device" and getattr(x, "type", "cpu") == "cuda"


def is_meta_device(x):
    """'meta' or a torch.device of type meta."""
    if isinstance(x, str):
        return x.split(":")[0] == "meta"
    return getattr(type(x), "__name__", "") == "Device" and getattr(x, "type", "cpu") == "meta"


def class_repr(obj):
    """Python's `repr(type(obj))` for a value user code passed in."""
    if is_tensor(obj):
        return "<class 'torch.Tensor'>"
    t = type(obj)
    path = t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"
    return repr(t) if hasattr(t, "torch_path") else f"<class '{path}'>"


def copy_no_grad(dst, src):
    """dst.copy_(src) under torch.no_grad()."""
    with TORCH["no_grad"]():
        dst.copy_(src)
    return dst


_SCRATCH = {}    # shape -> float64 buffer: no fresh pages for every optimizer step


def fma32(a, b, c, out=None):
    """float32 fma(a, b, c) rounded once, as PyTorch's vectorised CPU kernels compute it
    (into `out` when given; it may be `c` itself).

    a*b is exact in float64 and the float64 sum rounds to the right float32 unless it
    lands exactly on a float32 half-way point (low 29 bits 1000...0); only those elements
    take the exact (round-to-odd) emulation."""
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    s = _SCRATCH.get(shape)
    if s is None:
        if len(_SCRATCH) > 64:
            _SCRATCH.clear()
        s = _SCRATCH[shape] = np.empty(shape, np.float64)
    np.multiply(a, b, out=s, dtype=np.float64)
    s += c
    low = s.view(np.int64)
    halfway = np.bitwise_and(low, 0x1FFFFFFF) == 0x10000000
    fix = None
    if halfway.any():
        a64, b64, c64 = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
        fix = rng._fma32(a64[halfway], b64[halfway], c64[halfway])
    if out is None:
        out = s.astype(np.float32)
    else:
        np.copyto(out, s, casting="same_kind")
    if fix is not None:
        out[halfway] = fix
    return out


def zeros_like(t):
    return TORCH["zeros_like"](t)


def scalar_tensor(value):
    return TORCH["tensor"](value)


def bump_version(t):
    t._ver[0] += 1


def seed_draw(gen=None):
    """torch.empty((), dtype=torch.int64).random_(generator=gen).item(): random64() % 2**63."""
    return int(generator(gen)._random64(1)[0]) % (1 << 63)


def new_generator(seed):
    g = rng.Generator()
    g.manual_seed(seed)
    return g


def fill_row_(t, row, value):
    t._a[row] = value
    t._ver[0] += 1


def increment_(t):
    t._a += 1
    t._ver[0] += 1
