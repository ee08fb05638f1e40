"""More torch / Tensor ops (issue 14): the *_scatter ops, ldexp, frexp, angle, torch.range,
Tensor.new and Tensor.multinomial."""
import math

import numpy as np

from gradrepl.engine import creation
from gradrepl.engine import dtypes as D
from gradrepl.engine.ops.common import as_tensor, result
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.ops.sorting import returns
from gradrepl.engine.tensor import Size, Tensor, _new
from gradrepl.engine.util import pytype, warn, wrap_dim


# ------------------------------------------------------------------ select / slice / diagonal scatter
def _slot_select(ndim, dim, index):
    return (slice(None),) * dim + (index,)


def _slot_slice(ndim, dim, start, end, step):
    return (slice(None),) * dim + (slice(start, end, step),)


def _diag_slot(a, offset, dim1, dim2):
    """The index arrays of a's diagonal (offset, dim1, dim2), in diagonal order."""
    n1, n2 = a.shape[dim1], a.shape[dim2]
    if offset >= 0:
        k = max(0, min(n1, n2 - offset))
        i, j = np.arange(k), np.arange(k) + offset
    else:
        k = max(0, min(n1 + offset, n2))
        i, j = np.arange(k) - offset, np.arange(k)
    return i, j


def _scatter_into(a, src, kind, args):
    out = a.copy()
    if kind == "diagonal":
        offset, d1, d2 = args
        i, j = _diag_slot(a, offset, d1, d2)
        moved = np.moveaxis(out, (d1, d2), (-2, -1))
        moved[..., i, j] = src
        return out
    slot = _slot_select(a.ndim, *args) if kind == "select" else _slot_slice(a.ndim, *args)
    out[slot] = src
    return out


def _take_slot(a, kind, args):
    if kind == "diagonal":
        offset, d1, d2 = args
        i, j = _diag_slot(a, offset, d1, d2)
        return np.ascontiguousarray(np.moveaxis(a, (d1, d2), (-2, -1))[..., i, j])
    slot = _slot_select(a.ndim, *args) if kind == "select" else _slot_slice(a.ndim, *args)
    return np.ascontiguousarray(a[slot])


def _scatter_rule(name, kind, view):
    @rule(name, ("self", "src"), (f"{kind}_scatter(grad, zeros_like(src), ...)", f"grad.{view}(...)"),
          ctx=("args",), key=name)
    def backward(grad, xp, node, args):
        e = node.edges
        g_self = g_src = None
        if xp.tensors:
            part = SCATTER_TAKE[kind](grad, args)
            if e[0] is not None:
                g_self = SCATTER_OPS[kind](grad, _new(np.zeros(xp.raw(part).shape, xp.raw(grad).dtype)), args)
            if e[1] is not None:
                g_src = part
            return (g_self, g_src)
        if e[0] is not None:
            g_self = _scatter_into(grad, 0, kind, args)
        if e[1] is not None:
            g_src = _take_slot(grad, kind, args)
        return (g_self, g_src)
    return backward


SelectScatterBackward0 = _scatter_rule("SelectScatterBackward0", "select", "select")
SliceScatterBackward0 = _scatter_rule("SliceScatterBackward0", "slice", "slice")
DiagonalScatterBackward0 = _scatter_rule("DiagonalScatterBackward0", "diagonal", "diagonal")
_SCATTER_RULES = {"select": SelectScatterBackward0, "slice": SliceScatterBackward0,
                  "diagonal": DiagonalScatterBackward0}


def _scatter(self, src, kind, args):
    a, s = self._a, src._a
    expected = _take_slot(a, kind, args).shape
    if s.shape != expected:
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(s.shape)}, "
                           f"slice size = {list(expected)}")
    out = _scatter_into(a, s.astype(a.dtype, copy=False), kind, args)
    return result(out, _SCATTER_RULES[kind], (self, src), (), args)


def select_scatter(self, src, dim, index):
    d = wrap_dim(dim, self._a.ndim)
    size = self._a.shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(self._a.shape)} at "
                         f"dimension {dim}")
    return _scatter(self, src, "select", (d, index % size))


def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
    d = wrap_dim(dim, self._a.ndim)
    return _scatter(self, src, "slice", (d, start, end, step))


def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
    n = self._a.ndim
    return _scatter(self, src, "diagonal", (offset, wrap_dim(dim1, n), wrap_dim(dim2, n)))


SCATTER_OPS = {"select": lambda g, z, args: select_scatter(g, z, *args),
               "slice": lambda g, z, args: slice_scatter(g, z, *args),
               "diagonal": lambda g, z, args: diagonal_scatter(g, z, *args)}
SCATTER_TAKE = {"select": lambda g, args: g.select(*args),
                "slice": lambda g, args: g[_slot_slice(g.ndim, *args)],
                "diagonal": lambda g, args: g.diagonal(*args)}

declare("select_scatter", select_scatter, rules=[SelectScatterBackward0])
declare("slice_scatter", slice_scatter, rules=[SliceScatterBackward0])
declare("diagonal_scatter", diagonal_scatter, rules=[DiagonalScatterBackward0])


# ------------------------------------------------------------------ ldexp, frexp, angle
@rule("LdexpBackward0", ("self", "other"), ("grad * 2^other", "grad * self * ln(2) * 2^other"),
      saved=("self", "other"), ctx=("self_shape", "other_shape"))
def LdexpBackward0(grad, xp, node, self, other, self_shape, other_shape):
    e = node.edges
    o = xp.raw(other)
    if o.dtype.kind == "f":
        scale = other.exp2() if xp.tensors else np.exp2(o).astype(grad.dtype)
    else:   # pow(2, integer tensor) is an integer: 0 for negative exponents
        scale = xp.constant(np.where(o >= 0, np.exp2(np.maximum(o, 0)), 0).astype(xp.raw(grad).dtype))
    g_self = xp.sum_to(grad * scale, self_shape) if e[0] is not None else None
    g_other = xp.sum_to(grad * self * math.log(2) * scale, other_shape) if e[1] is not None else None
    return (g_self, g_other)


def ldexp(self, other):
    if type(other) is not Tensor:
        raise TypeError(f"ldexp(): argument 'other' (position 1) must be Tensor, not {pytype(other)}")
    x = self._a
    dt = x.dtype if x.dtype.kind == "f" else (other._a.dtype if other._a.dtype.kind == "f" else np.dtype(
        D.DEFAULT_FLOAT[0].np))
    out = (x.astype(dt) * np.exp2(other._a.astype(dt))).astype(dt)
    return result(out, LdexpBackward0, (self, other), (self, other), (x.shape, other._a.shape))


def _torch_ldexp(input, other, out=None):
    return ldexp(as_tensor(input), other)


declare("ldexp", ldexp, rules=[LdexpBackward0], torch_forward=_torch_ldexp)


@rule("FrexpBackward0", ("self",), ("grad / exp2(exponent)",), saved=("exponent",))
def FrexpBackward0(grad, xp, exponent):
    return (grad * xp.constant(np.exp2(-xp.raw(exponent).astype(np.float64)).astype(xp.raw(grad).dtype)),)


def frexp(self):
    x = self._a
    if x.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    m, e = np.frexp(x)
    exponent = _new(e.astype(np.int32))
    mantissa = result(m.astype(x.dtype), FrexpBackward0, (self,), (exponent,))
    return returns("frexp", ("mantissa", "exponent"))((mantissa, exponent))


declare("frexp", frexp, returns_tensor=False, rules=[FrexpBackward0])


@rule("AngleBackward0", ("self",), ("zeros_like(grad) (a real input)",))
def AngleBackward0(grad, xp):
    return (xp.zeros_like(grad),)


def angle(self):
    x = self._a
    dt = x.dtype if x.dtype.kind == "f" else np.dtype(D.DEFAULT_FLOAT[0].np)
    xf = x.astype(dt)
    out = np.where(np.isnan(xf), xf, np.where(xf < 0, dt.type(math.pi), dt.type(0))).astype(dt)
    return result(out, AngleBackward0, (self,))


declare("angle", angle, rules=[AngleBackward0])


# ------------------------------------------------------------------ torch.range, Tensor.new, multinomial
def torch_range(start, end=None, step=1, *, dtype=None, requires_grad=False, device=None, out=None, layout=None):
    if end is None:
        raise TypeError('range() missing 1 required positional arguments: "end"')
    warn("UserWarning", "torch.range is deprecated and will be removed in a future release because its behavior is "
                        "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values "
                        "in [start, end).")
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if (end - start) * step < 0:
        raise RuntimeError("upper bound and larger bound inconsistent with step sign")
    n = int(math.floor((end - start) / step)) + 1
    dt = D.DEFAULT_FLOAT[0] if dtype is None else dtype
    if dt.is_floating_point:
        arr = (start + np.arange(n, dtype=np.float64) * step).astype(dt.np)
    else:
        arr = (start + np.arange(n, dtype=np.int64) * int(step)).astype(dt.np)
    t = _new(arr)
    if requires_grad:
        t.requires_grad_(True)
    return t


declare("range", torch_range, method=False, rules=[])


def new(self, *args, **kwargs):
    """The legacy constructor x.new(...): data (a list, tuple of numbers) or sizes, in x's dtype."""
    dtype = D.from_np(self._a.dtype)
    if len(args) == 1 and type(args[0]) is Tensor:
        t = args[0]
        if t._a.dtype != self._a.dtype:
            raise TypeError(f"expected TensorOptions(dtype={_opt(self._a.dtype)}, device=cpu, layout=Strided, "
                            "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt)) "
                            f"(got TensorOptions(dtype={_opt(t._a.dtype)}, device=cpu, layout=Strided, "
                            "requires_grad=false (default), pinned_memory=false (default), memory_format=(nullopt)))")
        return _new(t._a)
    if len(args) == 1 and isinstance(args[0], (list, tuple)) and type(args[0]) is not Size:   # data
        return creation.tensor(args[0], dtype=dtype)
    sizes = args[0] if len(args) == 1 and type(args[0]) is Size else args
    return creation.empty(*sizes, dtype=dtype) if sizes else _new(np.empty((0,), self._a.dtype))


def _opt(dt):
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "bool": "bool"}.get(
        dt.name, dt.name)


declare("new", new, function=False, rules=[])


def multinomial_method(self, num_samples, replacement=False, *, generator=None):
    return creation.multinomial(self, num_samples, replacement, generator)


declare("multinomial", multinomial_method, function=False, rules=[])
