"""What every op's forward uses: wrapping results and recording nodes, views, operand
casting with PyTorch's type promotion, and the in-place checks."""
import weakref

import numpy as np

from gradrepl.engine import dtypes as D
from gradrepl.engine.autograd import DEFER_PACK, GRAD, NO_GRAD_VIEWS, SAVED_HOOKS, Node, accumulator, edge_of, \
    no_grad_view_entry, pack_saved
from gradrepl.engine.creation import tensor as _tensor_from_data
from gradrepl.engine.ops.registry import RESULT
from gradrepl.engine.tensor import _INFERENCE, INFERENCE_MODE, Tensor, _new, is_inference
from gradrepl.engine.util import broadcast_shape, pytype
from gradrepl.messages import msg


def result(out, spec, inputs, saved=(), ctx=None):
    """Wrap an op's output array and record spec's node when an input requires grad."""
    if type(out) is not np.ndarray:
        out = np.asarray(out)
    t = _new(out)
    if GRAD[0]:
        for i in inputs:
            if i is not None and (i._fn is not None or i._rg):
                spec.node(t, inputs, saved, ctx)
                break
    return t


def view(base, arr, spec, ctx):
    t = result(arr, spec, (base,), (), ctx)
    t._ver = base._ver
    t._base = base
    no_grad_view(t, base)
    return t


def no_grad_view(view, base):
    """A view made under no_grad of a tensor that requires grad is a leaf that requires grad
    (PyTorch: tensor([1., 0.], requires_grad=True), grad_fn None)."""
    while base._base is not None:  # PyTorch's views all hang off the root base
        base = base._base
    if not GRAD[0] and base.requires_grad:
        view._rg = True
        key = id(view)
        NO_GRAD_VIEWS[key] = (weakref.ref(view, lambda _ref: NO_GRAD_VIEWS.pop(key, None)), view._ver[0])


def multi(self, parts, spec, ctx):
    """Several view outputs of one node (split, unbind)."""
    outs = [_new(np.asarray(p)) for p in parts]
    if GRAD[0] and self.requires_grad:
        shape, dim, sizes = ctx
        if sizes is not None:
            sizes = [p.shape[dim] if p.ndim > dim else 1 for p in parts]
        node = Node(spec, (edge_of(self),), (), (shape, dim, sizes))
        node.n_out = len(parts)
        for i, o in enumerate(outs):
            o._fn, o._onr = node, i
            o._ver = self._ver
            o._base = self
    for o in outs:
        no_grad_view(o, self)
    return tuple(outs)


def is_reduced(arr):
    """float16 or bfloat16: PyTorch's CPU kernels compute on them in float32 and round."""
    return arr.dtype.itemsize == 2 and arr.dtype.kind in "fV"


def in_float32(kernel, t, *args, **kwargs):
    """kernel(t, ...) computed on t's values in float32, its result rounded to t's dtype
    (PyTorch accumulates float16/bfloat16 reductions in float32). The float32 stand-in
    carries t's autograd identity, so the node kernel records points at t's history."""
    s = _new(t._a.astype(np.float32))
    s._fn, s._onr, s._rg = t._fn, t._onr, t._rg
    if t._fn is None and t._rg:
        accumulator(t)
        s._acc = t._acc
    r = kernel(s, *args, **kwargs)
    r._a = r._a.astype(t._a.dtype)
    return r


def scalar_tensor(value, like):
    dt = D.result_type((value,))
    return _new(np.asarray(value, dt.np))


def as_tensor(x):
    if type(x) is Tensor:
        return x
    if isinstance(x, (bool, int, float, complex)):
        return _new(np.asarray(x, D.result_type((x,)).np))
    return _tensor_from_data(x)


class Unsupported(TypeError):
    """An operand type PyTorch's operators reject: the dunder returns NotImplemented so
    Python words the error (`unsupported operand type(s) for +: 'Tensor' and 'str'`)."""


def operands(a, b, floating=False):
    """NumPy operands of a binary op, cast to PyTorch's result dtype."""
    xa = a._a
    if type(b) is Tensor:
        xb = b._a
        if xa.dtype is not xb.dtype and xa.dtype != xb.dtype:
            rd = D.result_type((a, b))
            if floating and not rd.is_floating_point and not rd.is_complex:
                rd = D.DEFAULT_FLOAT[0]
            xa = xa.astype(rd.np, copy=False)
            xb = xb.astype(rd.np, copy=False)
        elif floating and xa.dtype.kind not in "fVc":
            xa = xa.astype(D.DEFAULT_FLOAT[0].np)
            xb = xb.astype(D.DEFAULT_FLOAT[0].np)
        if xa.shape != xb.shape:
            broadcast_shape(xa.shape, xb.shape)
        return xa, xb
    tb = type(b)
    if tb is float:
        if xa.dtype.kind in "fVc":
            return xa, b
        return xa.astype(D.DEFAULT_FLOAT[0].np), b
    if tb is int:
        if xa.dtype.kind == "c":
            return xa, b
        if xa.dtype.kind in "iu":
            if xa.dtype.kind == "u" or xa.dtype.itemsize < 8:
                info = np.iinfo(xa.dtype)
                if not info.min <= b <= info.max:
                    return xa, np.asarray(b).astype(xa.dtype)
            return xa, b
        if xa.dtype.kind in "fV":
            return xa, float(b) if abs(b) < 2 ** 53 else b
        if xa.dtype.kind == "b":
            return xa.astype(np.int64), b
    if tb is bool:
        if xa.dtype.kind == "b":
            return xa, np.bool_(b)
        return xa, int(b)
    if tb is complex:
        if xa.dtype.kind == "c":
            return xa, b
        rd = D.result_type((a, b))
        if xa.dtype == np.float16:        # float16 with a complex number: complex32 in PyTorch
            raise RuntimeError(msg("complex.chalf", "en", name=f"{a.dtype} with a complex number"))
        return xa.astype(rd.np), b
    if isinstance(b, (int, float, complex)):
        return operands(a, complex(b) if isinstance(b, complex) else float(b) if isinstance(b, float) else int(b),
                        floating)
    raise Unsupported(f"unsupported operand type(s): 'Tensor' and '{pytype(b)}'")


def needs(a, b):
    return GRAD[0] and (a._fn is not None or a._rg or (type(b) is Tensor and (b._fn is not None or b._rg)))


def shapes(a, b):
    """The shapes of the operands that need a gradient (None for the others): what a
    broadcasting rule sums its gradients back to."""
    sa = a._a.shape if (a._fn is not None or a._rg) else None
    sb = b._a.shape if (type(b) is Tensor and (b._fn is not None or b._rg)) else None
    return sa, sb


def grad_shapes(a, b):
    """shapes(a, b), or None when neither operand needs a gradient (one call on the hot path)."""
    ra = a._fn is not None or a._rg
    if type(b) is Tensor and (b._fn is not None or b._rg):
        return (a._a.shape if ra else None, b._a.shape)
    return (a._a.shape, None) if ra else None


def binary_result(out, a, b, spec, number_spec, other_always=False):
    """The Tensor of `out` for a binary op, recording `spec` when b is a Tensor and
    `number_spec` (the number kept in ctx, no edge for it) when b is a Python number.

    As PyTorch's generated code, an operand counts as saved (its in-place change fails
    backward) only when a formula that runs needs it: mul's self only when other needs a
    gradient and the other way round; div's other always (`other_always`). The node still
    keeps both for the tutor's :explain; unchecked ones have version None."""
    t = _new(out)
    if GRAD[0]:
        s = grad_shapes(a, b)
        if s is not None:
            if SAVED_HOOKS:
                DEFER_PACK[0] = True
            if type(b) is Tensor:
                node = t._fn = Node(spec, (edge_of(a), edge_of(b)), (a, b), s)
                node.versions = (node.versions[0] if s[1] is not None else None,
                                 node.versions[1] if s[0] is not None or other_always else None)
            else:
                node = t._fn = Node(number_spec, (edge_of(a), None), (a,), (s[0], b))
                node.versions = (None,)
            if SAVED_HOOKS:
                DEFER_PACK[0] = False
                pack_saved(node)
    return t


# ----------------------------------------------------------------- in-place checks
def check_writable(t):
    """An expanded tensor shares one element among many positions: PyTorch refuses to write it."""
    if not t._a.flags.writeable and any(st == 0 and n > 1 for st, n in zip(t._a.strides, t._a.shape)):
        raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a single "
                           "memory location. Please clone() the tensor before performing the operation.")


def check_leaf_inplace(t, through_view=False):
    if _INFERENCE and not INFERENCE_MODE[0] and is_inference(t):
        raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                           "clone to get a normal tensor before doing inplace update.See "
                           "https://github.com/pytorch/rfcs/pull/17 for more details.")
    if not GRAD[0]:
        check_writable(t)
        return
    if t._base is not None and NO_GRAD_VIEWS and no_grad_view_entry(t) is not None:
        raise RuntimeError(
            "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that "
            "this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both "
            "the view and the inplace either both inside the no_grad block (if you don't want the inplace to be "
            "tracked) or both outside (if you want the inplace to be tracked).")
    if t._fn is None and t._rg:
        if through_view or t._base is not None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = t._base
    if base is not None and base._fn is None and base._rg:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    check_writable(t)

