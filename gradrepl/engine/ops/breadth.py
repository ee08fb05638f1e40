"""More torch / Tensor ops (issue 14): the *_scatter ops, ldexp, frexp, angle, torch.range,
Tensor.new and Tensor.multinomial."""
import math

import numpy as np

from gradrepl.engine import creation, kernels
from gradrepl.engine import dtypes as D
from gradrepl.engine.ops.common import as_tensor, check_leaf_inplace, result
from gradrepl.engine.ops.inplace import binary_inplace
from gradrepl.engine.ops.registry import RESULT, declare, rule
from gradrepl.engine.ops.special import SPECIAL, _i1, special_i1
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


declare("ldexp", ldexp, rules=[LdexpBackward0], torch_forward=_torch_ldexp, inplace=binary_inplace(ldexp))


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


# ------------------------------------------------------------------ masked_scatter, put, index_put
@rule("MaskedScatterBackward0", ("self", "source"),
      ("grad.masked_fill(mask, 0)", "grad[mask] in order, zeros after, in source's shape"),
      saved=("mask",), ctx=("source_shape",))
def MaskedScatterBackward0(grad, xp, node, mask, source_shape):
    e = node.edges
    m = np.broadcast_to(xp.raw(mask), xp.raw(grad).shape)
    g_self = xp.zero_where(m, grad) if e[0] is not None else None
    g_src = None
    if e[1] is not None:
        n = int(np.prod(source_shape))
        picked = xp.index(grad, m)
        count = int(m.sum())
        if xp.tensors:
            pad = _new(np.zeros(n - count, xp.raw(grad).dtype))
            g_src = xp.cat([picked, pad], 0).reshape(source_shape)
        else:
            flat = np.zeros(n, grad.dtype)
            flat[:count] = picked
            g_src = flat.reshape(source_shape)
    return (g_self, g_src)


def masked_scatter(self, mask, source):
    a, m = self._a, mask._a
    if m.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{D.from_np(m.dtype).legacy if hasattr(D.from_np(m.dtype), 'legacy') else m.dtype}")
    mb = np.broadcast_to(m, a.shape)
    count = int(mb.sum())
    src = source._a.reshape(-1)
    if src.size < count:
        raise RuntimeError("masked_scatter: expected source to have at least as many elements as the ones selected "
                           f"by the mask, but got {src.size} and {count}")
    out = a.copy()
    out[mb] = src[:count].astype(a.dtype)
    return result(out, MaskedScatterBackward0, (self, source), (mask,), source._a.shape)


@rule("PutBackward0", ("self", "source"), ("grad.put(index, zeros_like(source), accumulate)", "grad.take(index)"),
      saved=("index",), ctx=("accumulate", "source_shape"))
def PutBackward0(grad, xp, node, index, accumulate, source_shape):
    e = node.edges
    idx = xp.raw(index).reshape(-1)
    g_self = g_src = None
    if e[0] is not None:
        if accumulate:
            g_self = grad
        else:
            shape = xp.raw(grad).shape
            flat_mask = np.zeros(int(np.prod(shape)), bool)
            flat_mask[idx % max(flat_mask.size, 1)] = True
            g_self = xp.zero_where(flat_mask.reshape(shape), grad)
    if e[1] is not None:
        g_src = xp.reshape(xp.index(xp.reshape(grad, (-1,)), idx % max(int(np.prod(xp.raw(grad).shape)), 1)),
                           source_shape)
    return (g_self, g_src)


def put(self, index, source, accumulate=False):
    a = self._a
    idx = index._a.reshape(-1)
    n = a.size
    if idx.size and (idx.max() >= n or idx.min() < -n):
        bad = int(idx[(idx >= n) | (idx < -n)][0])
        raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    src = source._a.reshape(-1).astype(a.dtype)
    if src.size != idx.size:
        raise RuntimeError(f"put_(): Expected source and index to have the same number of elements, but got "
                           f"source.numel() = {src.size}, index.numel() = {idx.size}")
    out = a.copy().reshape(-1)
    if accumulate:
        np.add.at(out, idx % n, src)
    else:
        out[idx % n] = src
    return result(out.reshape(a.shape), PutBackward0, (self, source), (index,), (accumulate, source._a.shape))


@rule("IndexPutBackward0", ("self", "values"),
      ("grad.index_put(indices, zeros_like(values), accumulate)", "grad[indices] summed to values' shape"),
      ctx=("indices", "accumulate", "values_shape"), key="IndexPutBackward0 (index_put)")
def IndexPutBackward0(grad, xp, node, indices, accumulate, values_shape):
    e = node.edges
    g_self = g_val = None
    if e[0] is not None:
        g_self = grad if accumulate else xp.zero_at(grad, indices)
    if e[1] is not None:
        g_val = xp.sum_to(xp.index(grad, indices), values_shape)
    return (g_self, g_val)


def _index_tuple(indices):
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"index_put(): argument 'indices' (position 1) must be tuple of Tensors, not "
                        f"{pytype(indices)}")
    return tuple(None if i is None else i._a for i in indices)


def index_put(self, indices, values, accumulate=False):
    a = self._a
    idx = tuple(slice(None) if i is None else i for i in _index_tuple(indices))
    out = a.copy()
    v = values._a.astype(a.dtype)
    if accumulate:
        np.add.at(out, idx, v)
    else:
        out[idx] = v
    return result(out, IndexPutBackward0, (self, values), (), (idx, accumulate, values._a.shape))


def _inplace_of(fn):
    def method(self, *args, **kwargs):
        check_leaf_inplace(self)
        r = fn(self.detach() if self._fn is not None else _new(self._a), *args, **kwargs)
        self._a[...] = r._a
        self._ver[0] += 1
        return self
    return method


declare("masked_scatter", masked_scatter, rules=[MaskedScatterBackward0], inplace=_inplace_of(masked_scatter))
declare("put", put, rules=[PutBackward0], inplace=_inplace_of(put))
declare("index_put", index_put, rules=[IndexPutBackward0], inplace=_inplace_of(index_put))


# ------------------------------------------------------------------ torch.special: more functions
def _kf(kernel, fn):
    """kernel (ATen's steps in the dtype, engine/kernels.py) for float32 and float64 (integers
    as the default float), _k64(fn) for half precision."""
    def run(a):
        dt = a.dtype if a.dtype.kind == "f" else np.dtype(D.DEFAULT_FLOAT[0].np)
        if dt in (np.float32, np.float64):
            return kernel(a.astype(dt, copy=False))
        return _k64(fn)(a)
    return run


def _k64(fn):
    """A float64 kernel rounded once to the input's floating dtype (integers give float32)."""
    def kernel(a):
        dt = a.dtype if a.dtype.kind == "f" else np.dtype(D.DEFAULT_FLOAT[0].np)
        with np.errstate(all="ignore"):
            return np.asarray(fn(a.astype(np.float64))).astype(dt)
    return kernel


_erfc64 = np.frompyfunc(math.erfc, 1, 1)


def _erfc(x):
    return _erfc64(x).astype(np.float64)


def _erfcx(x):
    big = x > 25
    xs = np.where(big, 0.0, x)
    small = np.exp(xs * xs) * _erfc(xs)
    xb = np.where(big, x, 1.0)
    asym = 1 / (xb * math.sqrt(math.pi)) * (1 - 1 / (2 * xb * xb) + 3 / (4 * xb ** 4))
    return np.where(big, asym, small)


def _log_ndtr(x):
    return np.where(x < -20, -0.5 * x * x - np.log(-x) - 0.5 * math.log(2 * math.pi),
                    np.where(x > 0, np.log1p(-0.5 * _erfc(x / math.sqrt(2))), np.log(0.5 * _erfc(-x / math.sqrt(2)))))


def _ndtri(p):
    """The normal quantile: Newton steps on ndtr from Acklam's rational start."""
    from_erf = np.frompyfunc(lambda v: math.sqrt(2) * _erfinv_scalar(2 * v - 1), 1, 1)
    return np.where(p <= 0, -np.inf, np.where(p >= 1, np.inf, from_erf(np.clip(p, 1e-300, 1)).astype(np.float64)))


def _erfinv_scalar(y):
    if y <= -1:
        return -math.inf
    if y >= 1:
        return math.inf
    w = -math.log((1 - y) * (1 + y))     # Giles' approximation, then two Newton steps on erf
    if w < 5:
        w -= 2.5
        p = 2.81022636e-08
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                  -0.00417768164, 0.246640727, 1.50140941):
            p = c + p * w
    else:
        w = math.sqrt(w) - 3
        p = -0.000200214257
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                  0.00943887047, 1.00167406, 2.83297682):
            p = c + p * w
    x = p * y
    for _ in range(2):
        x -= (math.erf(x) - y) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


def _special_unary(name, node, kernel, slope, formula):
    """A torch.special function with its own node; the rule multiplies grad by slope(x, result)
    (float64, rounded once; a constant under create_graph)."""
    @rule(node, ("self",), (formula,), saved=("self", "result"), key=node)
    def backward(grad, xp, self, result):    # noqa: F811 (the saved output, by the rule's name)
        x, r = xp.raw(self), xp.raw(result)
        with np.errstate(all="ignore"):
            d = slope(x.astype(np.float64), r.astype(np.float64)).astype(r.dtype)
        return (xp.depends(grad * xp.constant(d), self),)

    def forward(self):
        return result(kernel(self._a), backward, (self,), (self, RESULT))
    forward.__name__ = forward.__qualname__ = name
    declare(name, forward, method=False, function=False, rules=[backward])
    return forward


_SQRT_PI = math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2 * math.pi)
def _entr(x):
    """-x * log(x) above 0 (the C library's log), 0 at 0, -inf below, NaN kept."""
    out = np.where(x > 0, -x * kernels.libm64["log"](np.where(x > 0, x, 1.0)), np.where(x == 0, 0.0, -np.inf))
    return np.where(np.isnan(x), x, out)


special_entr = _special_unary("special_entr", "SpecialEntrBackward0",
                              _kf(lambda a: kernels.entrf(a) if a.dtype == np.float32 else _k64(_entr)(a), _entr),
                              lambda x, r: -(1 + np.log(x)), "grad * -(1 + log(self))")
special_erfcx = _special_unary("special_erfcx", "SpecialErfcxBackward0", _kf(lambda a: kernels.erfcx(a, _erfcx), _erfcx),
                               lambda x, r: 2 * x * r - 2 / _SQRT_PI, "(2 * self * result - 2 / sqrt(pi)) * grad")
special_log_ndtr = _special_unary("special_log_ndtr", "SpecialLogNdtrBackward0",
                                  _kf(lambda a: kernels.log_ndtr(a, _log_ndtr), _log_ndtr),
                                  lambda x, r: np.exp(-0.5 * x * x - r) / _SQRT_2PI,
                                  "grad * exp(-self^2 / 2 - result) / sqrt(2 pi)")
special_ndtri = _special_unary("special_ndtri", "SpecialNdtriBackward0", _kf(kernels.ndtri, _ndtri),
                               lambda x, r: _SQRT_2PI * np.exp(0.5 * r * r), "grad * sqrt(2 pi) * exp(result^2 / 2)")
special_i0e = _special_unary("special_i0e", "SpecialI0EBackward0",
                             _kf(kernels.bessel_i0e, lambda x: np.exp(-np.abs(x)) * np.i0(x)),
                             lambda x, r: np.exp(-np.abs(x)) * _i1(x) - np.sign(x) * r,
                             "grad * (i1e(self) - sgn(self) * result)")
special_i1e = _special_unary("special_i1e", "SpecialI1EBackward0", _kf(kernels.bessel_i1e, lambda x: np.exp(-np.abs(x)) * _i1(x)),
                             lambda x, r: np.where(x == 0, 0.5, np.exp(-np.abs(x)) * np.i0(x)
                                                   - r * (np.sign(x) + 1 / np.where(x == 0, 1, x))),
                             "grad * (i0e(self) - result * (sgn(self) + 1 / self))")


@rule("SpecialXlog1PyBackward0", ("self", "other"), ("grad * log1p(other)", "grad * self / (other + 1)"),
      saved=("self", "other"), ctx=("self_shape", "other_shape"))
def SpecialXlog1PyBackward0(grad, xp, node, self, other, self_shape, other_shape):
    e = node.edges
    g_self = xp.sum_to(grad * (other.log1p() if xp.tensors else np.log1p(other)), self_shape) \
        if e[0] is not None else None
    g_other = xp.sum_to(grad * self / (other + 1), other_shape) if e[1] is not None else None
    return (g_self, g_other)


def special_xlog1py(self, other):
    if type(self) is not Tensor:
        self = as_tensor(self)
    if type(other) is not Tensor:
        other = as_tensor(other)
    dt = np.result_type(self._a.dtype, other._a.dtype)
    dt = dt if dt.kind == "f" else np.dtype(D.DEFAULT_FLOAT[0].np)
    x, y = self._a.astype(np.float64), other._a.astype(np.float64)
    with np.errstate(all="ignore"):
        out = np.where(x == 0, np.where(np.isnan(y), np.nan, 0.0), x * np.log1p(y)).astype(dt)
    return result(out, SpecialXlog1PyBackward0, (self, other), (self, other), (self._a.shape, other._a.shape))


declare("special_xlog1py", special_xlog1py, method=False, function=False, rules=[SpecialXlog1PyBackward0])
SPECIAL.update(entr=special_entr, erfcx=special_erfcx, log_ndtr=special_log_ndtr, ndtri=special_ndtri,
               i0e=special_i0e, i1e=special_i1e, i1=special_i1, xlog1py=special_xlog1py)
