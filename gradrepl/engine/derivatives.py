"""The derivative table: every differentiable op's PyTorch node name, its local
derivative rule as text (shown by the tutor's :explain) and the code that computes it.

Each rule is written once against a small array namespace `xp`: NumPy arrays for an
ordinary backward (NP), differentiable Tensors when create_graph=True (TT), so that
second derivatives come from the same rules. A rule gets the incoming gradient `g`, the
node (saved values in node.saved, small context in node.ctx) and `xp`, and returns one
gradient per input edge (None where no gradient flows).
"""
import numpy as np


class OpSpec:
    __slots__ = ("name", "formulas", "backward", "saves", "multi", "inputs")

    def __init__(self, name, inputs, formulas, backward, saves=False, multi=False):
        self.name = name
        self.inputs = inputs          # names of the inputs, e.g. ("self", "other")
        self.formulas = formulas      # derivative rule per input, as PyTorch's derivatives.yaml words it
        self.backward = backward
        self.saves = saves            # saved tensors: a second backward needs retain_graph
        self.multi = multi            # several outputs: backward gets the list of output grads

    def __repr__(self):
        return f"<OpSpec {self.name}>"


SPECS = {}


def op(name, inputs, formulas, saves=False, multi=False, key=None):
    """Register a rule; `key` when two rules share PyTorch's node name (reshape's copy and
    batched matmul are both UnsafeViewBackward0)."""
    def register(fn):
        spec = OpSpec(name, inputs, formulas, fn, saves, multi)
        SPECS[key or name] = spec
        return spec
    return register


# ----------------------------------------------------------------- array namespaces
def _sum_to_np(g, shape):
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and g.shape[i + lead] != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    if lead:
        g = g.reshape(g.shape[lead:])
    return g.reshape(shape)


class NP:
    """Backward arithmetic on raw NumPy arrays (the usual, fast path)."""

    @staticmethod
    def val(t):
        return t._a if hasattr(t, "_a") else t

    sum_to = staticmethod(_sum_to_np)
    exp = staticmethod(np.exp)
    log = staticmethod(np.log)
    sin = staticmethod(np.sin)
    cos = staticmethod(np.cos)
    sign = staticmethod(np.sign)
    floor = staticmethod(np.floor)
    sqrt = staticmethod(np.sqrt)
    cosh = staticmethod(np.cosh)
    sinh = staticmethod(np.sinh)

    @staticmethod
    def where(c, a, b):
        out = np.where(c, a, b)
        dt = a.dtype if hasattr(a, "dtype") else b.dtype
        return out.astype(dt, copy=False)

    @staticmethod
    def mask(c, like):
        return c.astype(like.dtype)

    @staticmethod
    def expand(g, shape):
        return np.broadcast_to(g, shape)

    @staticmethod
    def reshape(g, shape):
        return np.reshape(g, shape)

    @staticmethod
    def sum(g, dims, keepdim):
        return np.sum(g, axis=dims, keepdims=keepdim)

    @staticmethod
    def unsqueeze_dims(g, dims):
        return np.expand_dims(g, tuple(sorted(dims)))

    @staticmethod
    def permute(g, perm):
        return np.transpose(g, perm)

    @staticmethod
    def swap(g, d0, d1):
        return np.swapaxes(g, d0, d1)

    @staticmethod
    def mT(a):
        return np.swapaxes(a, -1, -2)

    matmul = staticmethod(np.matmul)
    outer = staticmethod(np.outer)

    @staticmethod
    def zeros(shape, like):
        return np.zeros(shape, like.dtype)

    @staticmethod
    def scatter(shape, index, g, like):
        """zeros(shape) with g added at index (the backward of indexing)."""
        z = np.zeros(shape, like.dtype)
        if _is_basic(index):
            z[index] = g
        else:
            np.add.at(z, index, g)
        return z

    @staticmethod
    def index(g, index):
        return g[index]

    @staticmethod
    def zero_at(g, index):
        out = np.array(g, copy=True)
        out[index] = 0
        return out

    @staticmethod
    def split(g, dim, sizes):
        return np.split(g, np.cumsum(sizes)[:-1], axis=dim)

    @staticmethod
    def cat(gs, dim):
        return np.concatenate(gs, axis=dim)

    @staticmethod
    def cast(g, dtype):
        return g.astype(dtype.np, copy=False)

    @staticmethod
    def gather_put(shape, dim, idx, g, like):
        z = np.zeros(shape, like.dtype)
        np.put_along_axis(z, idx, g, axis=dim)
        return z


def _is_basic(index):
    items = index if isinstance(index, tuple) else (index,)
    return all(isinstance(i, (int, slice, type(None), type(Ellipsis))) for i in items)


class TT:
    """Backward arithmetic on Tensors: the backward pass is itself recorded (create_graph)."""

    @staticmethod
    def val(t):
        unpack = getattr(t, "unpack", None)
        return unpack() if unpack is not None else t

    @staticmethod
    def sum_to(g, shape):
        if tuple(g.shape) == tuple(shape):
            return g
        lead = g.ndim - len(shape)
        dims = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and g.shape[i + lead] != 1)
        if dims:
            g = g.sum(dims, keepdim=True)
        return g.reshape(shape)

    @staticmethod
    def exp(t):
        return t.exp()

    @staticmethod
    def log(t):
        return t.log()

    @staticmethod
    def sin(t):
        return t.sin()

    @staticmethod
    def cos(t):
        return t.cos()

    @staticmethod
    def sign(t):
        return t.sign()

    @staticmethod
    def floor(t):
        return t.floor()

    @staticmethod
    def sqrt(t):
        return t.sqrt()

    @staticmethod
    def cosh(t):
        return t.cosh()

    @staticmethod
    def sinh(t):
        return t.sinh()

    @staticmethod
    def where(c, a, b):
        from gradrepl.engine import functions as F
        from gradrepl.engine.tensor import wrap
        return F.where(c if hasattr(c, "_a") else wrap(np.asarray(c)), a, b)

    @staticmethod
    def mask(c, like):
        from gradrepl.engine.tensor import wrap
        return (c if hasattr(c, "_a") else wrap(np.asarray(c))).to(like.dtype)

    @staticmethod
    def expand(g, shape):
        return g.expand(*shape)

    @staticmethod
    def reshape(g, shape):
        return g.reshape(shape)

    @staticmethod
    def sum(g, dims, keepdim):
        if dims is None:
            return g.sum()
        return g.sum(dims, keepdim=keepdim)

    @staticmethod
    def unsqueeze_dims(g, dims):
        for d in sorted(dims):
            g = g.unsqueeze(d)
        return g

    @staticmethod
    def permute(g, perm):
        return g.permute(*perm)

    @staticmethod
    def swap(g, d0, d1):
        return g.transpose(d0, d1)

    @staticmethod
    def mT(a):
        return a.transpose(-1, -2)

    @staticmethod
    def matmul(a, b):
        return a.matmul(b)

    @staticmethod
    def outer(a, b):
        return a.reshape(-1, 1) * b.reshape(1, -1)

    @staticmethod
    def zeros(shape, like):
        from gradrepl.engine import functions as F
        return F.zeros(*shape, dtype=like.dtype)

    @staticmethod
    def scatter(shape, index, g, like):
        from gradrepl.engine.tensor import index_backward
        return index_backward(g, shape, index)

    @staticmethod
    def index(g, index):
        from gradrepl.engine.tensor import getitem_raw
        return getitem_raw(g, index)

    @staticmethod
    def zero_at(g, index):
        m = np.ones(g.shape, bool)
        m[index] = False
        from gradrepl.engine.tensor import wrap
        return g * wrap(m.astype(g._a.dtype))

    @staticmethod
    def split(g, dim, sizes):
        return list(g.split(list(sizes), dim))

    @staticmethod
    def cat(gs, dim):
        from gradrepl.engine import functions as F
        return F.cat(gs, dim)

    @staticmethod
    def cast(g, dtype):
        return g.to(dtype)

    @staticmethod
    def gather_put(shape, dim, idx, g, like):
        from gradrepl.engine.tensor import wrap
        z = TT.zeros(shape, like)
        return z.scatter(dim, wrap(idx), g) if hasattr(z, "scatter") else z


def _v(node, xp):
    return [xp.val(t) for t in node.saved]


# ----------------------------------------------------------------- elementwise binary
@op("AddBackward0", ("self", "other"), ("grad", "maybe_multiply(grad, alpha)"))
def add_backward(g, node, xp):
    sa, sb, alpha = node.ctx
    gb = g if alpha == 1 else g * alpha
    return (None if sa is None else xp.sum_to(g, sa), None if sb is None else xp.sum_to(gb, sb))


@op("SubBackward0", ("self", "other"), ("grad", "-grad * alpha"))
def sub_backward(g, node, xp):
    sa, sb, alpha = node.ctx
    return (None if sa is None else xp.sum_to(g, sa), None if sb is None else xp.sum_to(-g * alpha if alpha != 1 else -g, sb))


@op("RsubBackward1", ("self",), ("-grad * alpha",))
def rsub_backward(g, node, xp):
    return (-g,)


@op("MulBackward0", ("self", "other"), ("grad * other", "grad * self"), saves=True)
def mul_backward(g, node, xp):
    sa, sb, scalar = node.ctx
    saved = node.saved
    if scalar is not None:  # tensor * Python number: the number is in ctx, not saved
        return (xp.sum_to(g * scalar, sa), None)
    a, b = xp.val(saved[0]), xp.val(saved[1])
    return (None if sa is None else xp.sum_to(g * b, sa), None if sb is None else xp.sum_to(g * a, sb))


@op("DivBackward0", ("self", "other"), ("grad / other", "-grad * self / (other * other)"), saves=True)
def div_backward(g, node, xp):
    sa, sb, scalar = node.ctx
    if scalar is not None:
        return (xp.sum_to(g / scalar, sa), None)
    a, b = _v(node, xp)
    ga = None if sa is None else xp.sum_to(g / b, sa)
    gb = None if sb is None else xp.sum_to(-g * a / (b * b), sb)
    return (ga, gb)


@op("PowBackward0", ("self",), ("grad * exponent * self.pow(exponent - 1)",), saves=True)
def pow_backward(g, node, xp):
    (a,) = _v(node, xp)
    e = node.ctx
    if e == 0:
        return (g * 0,)
    return (g * (e * a ** (e - 1)),)


@op("PowBackward1", ("self", "exponent"),
    ("grad * exponent * self.pow(exponent - 1)", "grad * result * self.log()  (0 where self == 0 and exponent >= 0)"),
    saves=True)
def pow_tt_backward(g, node, xp):
    a, e, r = _v(node, xp)
    sa, sb = node.ctx
    ga = None
    if sa is not None:  # 0 where the exponent is 0 (self ** -1 may be inf there)
        with np.errstate(divide="ignore", invalid="ignore"):
            ga = xp.sum_to(xp.where(xp.val(node.saved[1]) == 0, g * 0, g * (e * a ** (e - 1))), sa)
    gb = None
    if sb is not None:
        zero = (xp.val(node.saved[0]) == 0) & (xp.val(node.saved[1]) >= 0)
        gb = xp.sum_to(xp.where(zero, r * 0, g * r * xp.log(a)), sb)
    return (ga, gb)


@op("PowBackward2", ("exponent",), ("grad * result * log(self)",), saves=True)
def pow_st_backward(g, node, xp):
    (r,) = _v(node, xp)
    base = node.ctx
    if base == 0:
        return (g * 0,)
    return (g * r * float(np.log(base)),)


@op("MaximumBackward0", ("self", "other"), ("grad where self > other (half on ties)", "grad where other > self (half on ties)"),
    saves=True)
def maximum_backward(g, node, xp):
    a, b = _v(node, xp)
    sa, sb = node.ctx
    ra, rb = xp.val(node.saved[0]), xp.val(node.saved[1])
    wa = xp.mask(ra > rb, g) + xp.mask(ra == rb, g) * 0.5
    wb = xp.mask(rb > ra, g) + xp.mask(ra == rb, g) * 0.5
    return (xp.sum_to(g * wa, sa) if sa is not None else None, xp.sum_to(g * wb, sb) if sb is not None else None)


@op("MinimumBackward0", ("self", "other"), ("grad where self < other (half on ties)", "grad where other < self (half on ties)"),
    saves=True)
def minimum_backward(g, node, xp):
    sa, sb = node.ctx
    ra, rb = xp.val(node.saved[0]), xp.val(node.saved[1])
    wa = xp.mask(ra < rb, g) + xp.mask(ra == rb, g) * 0.5
    wb = xp.mask(rb < ra, g) + xp.mask(ra == rb, g) * 0.5
    return (xp.sum_to(g * wa, sa) if sa is not None else None, xp.sum_to(g * wb, sb) if sb is not None else None)


@op("WhereBackward0", ("condition", "self", "other"), ("non-differentiable", "where(condition, grad, 0)", "where(condition, 0, grad)"),
    saves=True)
def where_backward(g, node, xp):
    (c,) = node.saved
    c = c._a
    sa, sb = node.ctx
    z = g * 0
    return (None,
            None if sa is None else xp.sum_to(xp.where(c, g, z), sa),
            None if sb is None else xp.sum_to(xp.where(c, z, g), sb))


# ----------------------------------------------------------------- elementwise unary
def _unary(name, formula, rule, saves=True):
    def backward(g, node, xp):
        return (rule(g, _v(node, xp), node, xp),)
    return op(name, ("self",), (formula,), saves=saves)(backward)


_unary("NegBackward0", "-grad", lambda g, s, n, xp: -g, saves=False)
_unary("ExpBackward0", "grad * result", lambda g, s, n, xp: g * s[0])
_unary("Expm1Backward0", "grad * (result + 1)", lambda g, s, n, xp: g * (s[0] + 1))
_unary("LogBackward0", "grad / self", lambda g, s, n, xp: g / s[0])
_unary("Log2Backward0", "grad / (self * ln 2)", lambda g, s, n, xp: g / (s[0] * 0.6931471805599453))
_unary("Log10Backward0", "grad / (self * ln 10)", lambda g, s, n, xp: g / (s[0] * 2.302585092994046))
_unary("Log1PBackward0", "grad / (self + 1)", lambda g, s, n, xp: g / (s[0] + 1))
_unary("SqrtBackward0", "grad / (2 * result)", lambda g, s, n, xp: g / (2 * s[0]))
_unary("RsqrtBackward0", "-0.5 * grad * result ** 3", lambda g, s, n, xp: -0.5 * g * s[0] ** 3)
_unary("ReciprocalBackward0", "-grad * result * result", lambda g, s, n, xp: -g * (s[0] * s[0]))
_unary("SinBackward0", "grad * self.cos()", lambda g, s, n, xp: g * xp.cos(s[0]))
_unary("CosBackward0", "grad * -self.sin()", lambda g, s, n, xp: g * -xp.sin(s[0]))
_unary("TanBackward0", "grad * (1 + result ** 2)", lambda g, s, n, xp: g * (1 + s[0] * s[0]))
_unary("SinhBackward0", "grad * self.cosh()", lambda g, s, n, xp: g * xp.cosh(s[0]))
_unary("CoshBackward0", "grad * self.sinh()", lambda g, s, n, xp: g * xp.sinh(s[0]))
_unary("AsinBackward0", "grad / sqrt(1 - self ** 2)", lambda g, s, n, xp: g / xp.sqrt(1 - s[0] * s[0]))
_unary("AcosBackward0", "-grad / sqrt(1 - self ** 2)", lambda g, s, n, xp: -g / xp.sqrt(1 - s[0] * s[0]))
_unary("AtanBackward0", "grad / (1 + self ** 2)", lambda g, s, n, xp: g / (1 + s[0] * s[0]))
_unary("TanhBackward0", "grad * (1 - result * result)", lambda g, s, n, xp: g * (1 - s[0] * s[0]))
_unary("SigmoidBackward0", "grad * (1 - result) * result", lambda g, s, n, xp: g * (1 - s[0]) * s[0])
_unary("ReluBackward0", "grad where result > 0, else 0",
       lambda g, s, n, xp: xp.where(s[0] <= 0, g * 0, g) if xp is TT else np.where(s[0] <= 0, 0, g).astype(g.dtype))
_unary("AbsBackward0", "grad * self.sgn()", lambda g, s, n, xp: g * xp.sign(s[0]))
_unary("SignBackward0", "zeros_like(grad)", lambda g, s, n, xp: g * 0, saves=False)
_unary("ClampBackward1", "grad where min <= self <= max, else 0",
       lambda g, s, n, xp: g * xp.mask(_in_range(xp.val(n.saved[0]), n.ctx), g))
_unary("LeakyReluBackward0", "grad where self > 0, else grad * negative_slope",
       lambda g, s, n, xp: g * (xp.mask(xp.val(n.saved[0]) > 0, g) + xp.mask(xp.val(n.saved[0]) <= 0, g) * n.ctx))
_unary("ToCopyBackward0", "grad.to(self.dtype)", lambda g, s, n, xp: xp.cast(g, n.ctx), saves=False)
_unary("CloneBackward0", "grad", lambda g, s, n, xp: g, saves=False)
_unary("ZeroBackward0", "zeros_like(grad)", lambda g, s, n, xp: g * 0, saves=False)
_unary("FillBackward2", "zeros_like(grad)", lambda g, s, n, xp: g * 0, saves=False)
_unary("MaskedFillBackward0", "grad.masked_fill(mask, 0)", lambda g, s, n, xp: g * xp.mask(~n.ctx, g), saves=False)
_unary("RemainderBackward0", "grad", lambda g, s, n, xp: g, saves=False)
for _name in ("FloorBackward0", "CeilBackward0", "RoundBackward0", "RoundBackward1"):
    _unary(_name, "zeros_like(grad)", lambda g, s, n, xp: g * 0, saves=False)


@op("RemainderBackward1", ("self", "other"), ("grad", "-grad * self.div(other, rounding_mode='floor')"),
    saves=True)
def remainder_backward(g, node, xp):
    a, b = _v(node, xp)
    sa, sb = node.ctx
    q = xp.floor(a / b)
    return (None if sa is None else xp.sum_to(g, sa), None if sb is None else xp.sum_to(-g * q, sb))


@op("NotImplemented", ("self", "other"), ("not implemented",))
def not_implemented_backward(g, node, xp):
    raise RuntimeError(f"derivative for {node.ctx} is not implemented")


@op("LogsumexpBackward0", ("self",), ("grad * (self - result).exp()",), saves=True)
def logsumexp_backward(g, node, xp):
    a, r = _v(node, xp)
    dims, keepdim = node.ctx
    if not keepdim:
        g = xp.unsqueeze_dims(g, dims)
        r = xp.unsqueeze_dims(r, dims)
    return (g * xp.exp(a - r),)


def _in_range(x, bounds):
    lo, hi = bounds
    xa = x._a if hasattr(x, "_a") else x
    m = np.ones(xa.shape, bool)
    if lo is not None:
        m &= xa >= lo
    if hi is not None:
        m &= xa <= hi
    return m


# ----------------------------------------------------------------- reductions
@op("SumBackward0", ("self",), ("grad.expand(self.sizes())",))
def sum_backward(g, node, xp):
    return (xp.expand(g, node.ctx),)


def _expand_reduced(g, node, xp):
    shape, dims, keepdim = node.ctx
    if not keepdim:
        g = xp.unsqueeze_dims(g, dims)
    return xp.expand(g, shape)


@op("SumBackward1", ("self",), ("grad.unsqueeze(dim).expand(self.sizes())",))
def sum_dim_backward(g, node, xp):
    return (_expand_reduced(g, node, xp),)


@op("MeanBackward0", ("self",), ("grad.expand(self.sizes()) / self.numel()",))
def mean_backward(g, node, xp):
    shape = node.ctx
    n = int(np.prod(shape))
    return (xp.expand(g / n, shape),)


@op("MeanBackward1", ("self",), ("grad.unsqueeze(dim).expand(self.sizes()) / (number of elements reduced)",))
def mean_dim_backward(g, node, xp):
    shape, dims, keepdim = node.ctx
    n = int(np.prod([shape[d] for d in dims])) if dims else 1
    return (_expand_reduced(g / n, node, xp),)


@op("MaxBackward1", ("self",), ("grad spread evenly over the elements equal to the max",), saves=True)
def max_all_backward(g, node, xp):
    a, r = _v(node, xp)
    m = xp.mask(xp.val(node.saved[0]) == xp.val(node.saved[1]), g)
    return (m * (g / m.sum()),)


@op("AmaxBackward0", ("self",), ("grad spread evenly over the elements equal to the max along dim",), saves=True)
def amax_backward(g, node, xp):
    a, r = _v(node, xp)
    dims, keepdim = node.ctx
    raw_r = node.saved[1]._a
    if not keepdim:
        g = xp.unsqueeze_dims(g, dims)
        raw_r = np.expand_dims(raw_r, dims)
    hit = node.saved[0]._a == raw_r
    count = np.sum(hit, axis=dims, keepdims=True).astype(raw_r.dtype)
    return (g / xp.mask(count, g) * xp.mask(hit, g),)


_MIN_ALL = OpSpec("MinBackward1", ("self",), ("grad spread evenly over the elements equal to the min",),
                  max_all_backward.backward, saves=True)  # @op returned the spec: reuse its rule
SPECS["MinBackward1"] = _MIN_ALL


@op("MaxBackward0", ("self",), ("grad placed at indices (value_selecting_reduction_backward)",), saves=True)
def max_dim_backward(g, node, xp):
    (idx,) = node.saved
    shape, dim, keepdim = node.ctx
    if not shape:  # max over dim 0 of a 0-d tensor: the value itself
        return (xp.reshape(g, ()),)
    if not keepdim:
        g = xp.unsqueeze_dims(g, (dim,))
    ia = np.expand_dims(idx._a, dim) if not keepdim else idx._a
    return (xp.gather_put(shape, dim, ia, g, g),)


SPECS["MinBackward0"] = OpSpec("MinBackward0", ("self",), ("grad placed at indices (value_selecting_reduction_backward)",),
                               max_dim_backward.backward, saves=True)


@op("ProdBackward0", ("self",), ("grad * (product of all other elements)",), saves=True)
def prod_backward(g, node, xp):
    a, r = _v(node, xp)
    return (g * _prod_others(a, r, None, xp),)


@op("ProdBackward1", ("self",), ("grad * (product of the other elements along dim)",), saves=True)
def prod_dim_backward(g, node, xp):
    a, r = _v(node, xp)
    dim, keepdim = node.ctx
    if not keepdim:
        g = xp.unsqueeze_dims(g, (dim,))
        r = xp.unsqueeze_dims(r, (dim,))
    return (g * _prod_others(a, r, dim, xp),)


def _prod_others(a, r, dim, xp):
    raw = a._a if hasattr(a, "_a") else a
    if not (raw == 0).any():
        return r / a
    # with zeros: the product of every other element, computed directly
    flat = raw if dim is not None else raw.reshape(-1)
    axis = dim if dim is not None else 0
    moved = np.moveaxis(flat, axis, -1)
    n = moved.shape[-1]
    out = np.empty_like(moved)
    for i in range(n):
        out[..., i] = np.prod(np.delete(moved, i, axis=-1), axis=-1)
    out = np.moveaxis(out, -1, axis).reshape(raw.shape)
    if xp is TT:
        from gradrepl.engine.tensor import wrap
        return wrap(out)
    return out


@op("LinalgVectorNormBackward0", ("self",), ("grad * self / result  (ord 2; see linalg_vector_norm_backward for others)",),
    saves=True)
def norm_backward(g, node, xp):
    a, r = _v(node, xp)
    dims, keepdim, p = node.ctx
    if p == 0:
        return (None,)
    raw_a, raw_r = node.saved[0]._a, node.saved[1]._a
    if dims is not None and not keepdim:
        g = xp.unsqueeze_dims(g, dims)
        r = xp.unsqueeze_dims(r, dims)
        raw_r = np.expand_dims(raw_r, tuple(sorted(dims)))
    if p == 1:
        return (xp.sign(a) * g,)
    if p in (float("inf"), -float("inf")):
        hit = np.abs(raw_a) == raw_r
        count = np.sum(hit, axis=dims, keepdims=True).astype(raw_a.dtype)
        return (xp.sign(a) * ((g / xp.mask(count, g)) * xp.mask(hit, g)),)
    nonzero = xp.mask(raw_r != 0, g)
    safe = r + xp.mask(raw_r == 0, r)  # 1 where the norm is 0: those grads are masked to 0 anyway
    if p == 2:
        return (g * a / safe * nonzero,)
    absa = a * xp.sign(a)
    if p < 2:
        with np.errstate(divide="ignore", invalid="ignore"):
            scaled = xp.sign(a) * absa ** (p - 1)
        if p < 1:  # |x| ** (p - 1) is inf at 0: those elements get no gradient
            scaled = xp.where(raw_a != 0, scaled, a * 0)
        return (scaled * g * safe ** (1 - p) * nonzero,)
    return (a * absa ** (p - 2) * g / safe ** (p - 1) * nonzero,)


@op("SoftmaxBackward0", ("self",), ("result * (grad - (grad * result).sum(dim, keepdim=True))",), saves=True)
def softmax_backward(g, node, xp):
    (y,) = _v(node, xp)
    dim = node.ctx
    return (y * (g - xp.sum(g * y, (dim,), True)),)


@op("LogSoftmaxBackward0", ("self",), ("grad - result.exp() * grad.sum(dim, keepdim=True)",), saves=True)
def log_softmax_backward(g, node, xp):
    (y,) = _v(node, xp)
    dim = node.ctx
    return (g - xp.exp(y) * xp.sum(g, (dim,), True),)


@op("CumsumBackward0", ("self",), ("grad.flip(dim).cumsum(dim).flip(dim)",))
def cumsum_backward(g, node, xp):
    dim = node.ctx
    if xp is TT:
        return (g.flip(dim).cumsum(dim).flip(dim),)
    return (np.flip(np.cumsum(np.flip(g, dim), axis=dim), dim),)


@op("VarBackward0", ("self",), ("grad * 2 * (self - self.mean(dim)) / (N - correction)",), saves=True)
def var_backward(g, node, xp):
    (a,) = _v(node, xp)
    dims, correction, keepdim = node.ctx
    return (_var_grad(g, a, dims, correction, keepdim, xp),)


def _var_grad(g, a, dims, correction, keepdim, xp):
    shape = a.shape
    axes = tuple(range(len(shape))) if dims is None else dims
    n = int(np.prod([shape[d] for d in axes]))
    mean = xp.sum(a, axes, True) / n
    if dims is not None and not keepdim:
        g = xp.unsqueeze_dims(g, axes)
    return g * 2 * (a - mean) / (n - correction)


@op("StdBackward0", ("self",), ("grad * (self - self.mean(dim)) / ((N - correction) * result)",), saves=True)
def std_backward(g, node, xp):
    a, r = _v(node, xp)
    dims, correction, keepdim = node.ctx
    raw_r = node.saved[1]._a
    if dims is not None and not keepdim:
        r = xp.unsqueeze_dims(r, dims)
        g = xp.unsqueeze_dims(g, dims)
        raw_r = np.expand_dims(raw_r, dims)
    # where the std is 0 the gradient is 0 (PyTorch masks it), not inf * 0
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = xp.where(raw_r == 0, g * 0, g / (2 * r))
    return (_var_grad(scaled, a, dims, correction, True, xp),)


# ----------------------------------------------------------------- linear algebra
@op("DotBackward0", ("self", "tensor"), ("grad * tensor", "grad * self"), saves=True)
def dot_backward(g, node, xp):
    a, b = _v(node, xp)
    ea, eb = node.edges
    return (None if ea is None else g * b, None if eb is None else g * a)


@op("MvBackward0", ("self", "vec"), ("grad.ger(vec)", "self.t().mv(grad)"), saves=True)
def mv_backward(g, node, xp):
    m, v = _v(node, xp)
    ea, eb = node.edges
    return (None if ea is None else xp.outer(g, v), None if eb is None else xp.matmul(xp.mT(m), g))


@op("MmBackward0", ("self", "mat2"), ("grad.mm(mat2.t())", "self.t().mm(grad)"), saves=True)
def mm_backward(g, node, xp):
    a, b = _v(node, xp)
    ea, eb = node.edges   # an input that needs no gradient costs no matmul
    return (None if ea is None else xp.matmul(g, xp.mT(b)), None if eb is None else xp.matmul(xp.mT(a), g))


def _matmul_general(g, node, xp):
    a, b = _v(node, xp)
    sa, sb = node.ctx
    a2 = xp.reshape(a, (1,) + tuple(sa)) if len(sa) == 1 else a
    b2 = xp.reshape(b, tuple(sb) + (1,)) if len(sb) == 1 else b
    g2 = g
    if len(sa) == 1:
        g2 = xp.unsqueeze_dims(g2, (g2.ndim - 1,))
    if len(sb) == 1:
        g2 = xp.unsqueeze_dims(g2, (g2.ndim,))
    ea, eb = node.edges
    ga = gb = None
    if ea is not None:
        ga = xp.matmul(g2, xp.mT(b2))
        if len(sa) == 1:
            ga = xp.reshape(xp.sum_to(ga, (1,) + tuple(sa)), sa)
        ga = xp.sum_to(ga, sa)
    if eb is not None:
        gb = xp.matmul(xp.mT(a2), g2)
        if len(sb) == 1:
            gb = xp.reshape(xp.sum_to(gb, tuple(sb) + (1,)), sb)
        gb = xp.sum_to(gb, sb)
    return (ga, gb)


op("UnsafeViewBackward0", ("self", "other"), ("(batched matmul) grad @ other.mT", "self.mT @ grad"), saves=True)(_matmul_general)
op("SqueezeBackward4", ("self", "other"), ("(vector @ matrix) grad @ other.mT", "self.mT @ grad"), saves=True)(_matmul_general)
op("BmmBackward0", ("self", "mat2"), ("grad.bmm(mat2.transpose(1, 2))", "self.transpose(1, 2).bmm(grad)"), saves=True)(_matmul_general)


# ----------------------------------------------------------------- shape and indexing
@op("TBackward0", ("self",), ("grad.t()",))
def t_backward(g, node, xp):
    return (xp.mT(g) if g.ndim == 2 else g,)


@op("TransposeBackward0", ("self",), ("grad.transpose(dim0, dim1)",))
def transpose_backward(g, node, xp):
    d0, d1 = node.ctx
    return (xp.swap(g, d0, d1),)


@op("PermuteBackward0", ("self",), ("grad.permute(inverse(dims))",))
def permute_backward(g, node, xp):
    return (xp.permute(g, tuple(np.argsort(node.ctx))),)


def _reshape_back(g, node, xp):
    return (xp.reshape(g, node.ctx),)


for _name, _f in (("ViewBackward0", "grad.reshape(self.sizes())"),
                  ("SqueezeBackward0", "grad.reshape(self.sizes())"),
                  ("SqueezeBackward1", "grad.unsqueeze(dim)"),
                  ("SqueezeBackward2", "grad.unsqueeze(dims)"),
                  ("UnsqueezeBackward0", "grad.squeeze(dim)")):
    op(_name, ("self",), (_f,))(_reshape_back)
op("UnsafeViewBackward0", ("self",), ("grad.reshape(self.sizes())",), key="ReshapeCopy")(_reshape_back)


@op("ExpandBackward0", ("self",), ("grad.sum_to_size(self.sizes())",))
def expand_backward(g, node, xp):
    return (xp.sum_to(g, node.ctx),)


@op("RepeatBackward0", ("self",), ("sum of grad over the repeated tiles",))
def repeat_backward(g, node, xp):
    shape, reps = node.ctx
    lead = len(reps) - len(shape)
    full = (1,) * lead + tuple(shape)
    split = []
    for r, s in zip(reps, full):
        split += [r, s]
    g = xp.reshape(g, tuple(split))
    g = xp.sum(g, tuple(range(0, 2 * len(reps), 2)), False)
    return (xp.reshape(g, shape),)


def _index_backward(g, node, xp):
    shape, index = node.ctx
    return (xp.scatter(shape, index, g, g),)


for _name, _f in (("SelectBackward0", "grad placed at [index] in zeros(self.sizes())"),
                  ("SliceBackward0", "grad placed at [slice] in zeros(self.sizes())"),
                  ("IndexBackward0", "grad accumulated at [indices] in zeros(self.sizes())"),
                  ("AliasBackward0", "grad"),
                  ("AsStridedBackward0", "grad placed at the view's elements in zeros(base.sizes())")):
    op(_name, ("self",), (_f,))(_index_backward)


@op("IndexPutBackward0", ("grad",), ("grad[index]",))
def index_put_backward(g, node, xp):
    shape, index = node.ctx
    return (xp.index(g, index),)


@op("CopySlices", ("self", "src"), ("grad with [index] zeroed", "grad[index]"), saves=True)  # freed by backward, as in PyTorch
def copy_slices_backward(g, node, xp):
    index, src_shape, has_base = node.ctx
    gb = xp.zero_at(g, index) if has_base else None
    gs = xp.index(g, index)
    if src_shape is not None:
        gs = xp.sum_to(gs, src_shape)
    return (gb, gs)


# The same rule under the names PyTorch reports for other index assignments:
# x[mask] = v (index_put_), x[:] = 2.0 (fill_), x[...] = t (copy_).
for _name in ("IndexPutBackward0", "FillBackward3", "CopyBackwards"):
    op(_name, ("self", "src"), SPECS["CopySlices"].formulas, saves=True,
       key=f"CopySlices as {_name}")(SPECS["CopySlices"].backward)


@op("CopyBackwards", ("self", "src"), ("zeros_like(grad)", "grad"))
def copy_backward(g, node, xp):
    src_shape = node.ctx
    return (g * 0, xp.sum_to(g, src_shape))


@op("CatBackward0", ("tensors",), ("grad.split(sizes, dim)",), multi=False)
def cat_backward(g, node, xp):
    dim, sizes = node.ctx
    return tuple(xp.split(g, dim, sizes))


@op("StackBackward0", ("tensors",), ("grad.unbind(dim)",))
def stack_backward(g, node, xp):
    dim, n = node.ctx
    parts = xp.split(g, dim, [1] * n)
    return tuple(xp.reshape(p, p.shape[:dim] + p.shape[dim + 1:]) for p in parts)


def _split_backward(grads, node, xp):
    shape, dim, sizes = node.ctx
    like = next(g for g in grads if g is not None)
    parts = []
    for g, s in zip(grads, sizes):
        if g is None:
            sh = list(shape)
            sh[dim] = s
            g = xp.zeros(tuple(sh), like)
        parts.append(g)
    return (xp.cat(parts, dim),)


op("SplitBackward0", ("self",), ("cat(grads, dim)",), multi=True)(_split_backward)
op("SplitWithSizesBackward0", ("self",), ("cat(grads, dim)",), multi=True)(_split_backward)


@op("UnbindBackward0", ("self",), ("stack(grads, dim)",), multi=True)
def unbind_backward(grads, node, xp):
    shape, dim, sizes = node.ctx
    like = next(g for g in grads if g is not None)
    parts = []
    for g in grads:
        if g is None:
            g = xp.zeros(tuple(shape[:dim] + shape[dim + 1:]), like)
        parts.append(xp.unsqueeze_dims(g, (dim,)))
    return (xp.cat(parts, dim),)


@op("FlipBackward0", ("self",), ("grad.flip(dims)",))
def flip_backward(g, node, xp):
    return (g.flip(node.ctx) if xp is TT else np.flip(g, node.ctx),)


@op("GatherBackward0", ("self",), ("zeros(self.sizes()).scatter_add(dim, index, grad)",), saves=True)
def gather_backward(g, node, xp):
    (idx,) = node.saved
    shape, dim = node.ctx
    z = np.zeros(shape, g.dtype if xp is NP else g._a.dtype)
    gg = g if xp is NP else g._a
    np.add.at(z, tuple(_along(idx._a, dim)), gg)
    if xp is TT:
        from gradrepl.engine.tensor import wrap
        return (wrap(z),)
    return (z,)


def _along(idx, dim):
    grids = list(np.indices(idx.shape, sparse=True))
    grids[dim] = idx
    return grids


# ----------------------------------------------------------------- losses
@op("MseLossBackward0", ("self", "target"), ("2 * (self - target) * grad / N  (reduction='mean')", "-(the same)"), saves=True)
def mse_backward(g, node, xp):
    a, t = _v(node, xp)
    reduction = node.ctx
    n = a.size if xp is NP else a.numel()
    d = (a - t) * 2
    if reduction == "mean":
        d = d * g / n
    elif reduction == "sum":
        d = d * g
    else:
        d = d * g
    return (d, -d)


@op("NllLossBackward0", ("self", "target"), ("-grad / N at [i, target_i]  (reduction='mean')", "non-differentiable"),
    saves=True)
def nll_backward(g, node, xp):
    (target,) = node.saved
    shape, reduction, weight, ignore_index, total = node.ctx
    t = target._a
    gg = g._a if xp is TT else g
    z = np.zeros(shape, gg.dtype)
    rows = np.arange(t.shape[0]) if len(shape) == 2 else None
    w = np.ones(t.shape, gg.dtype) if weight is None else weight[t].astype(gg.dtype)
    w = np.where(t == ignore_index, 0, w).astype(gg.dtype)
    scale = gg
    if reduction == "mean":
        scale = gg / total
    if reduction == "none":
        vals = -w * gg
    else:
        vals = -w * scale
    if len(shape) == 2:
        tt = np.where(t == ignore_index, 0, t)
        z[rows, tt] = vals
    else:
        z[0 if t == ignore_index else int(t)] = vals
    if xp is TT:
        from gradrepl.engine.tensor import wrap
        return (wrap(z), None)
    return (z, None)


@op("BinaryCrossEntropyBackward0", ("self", "target"), ("grad * (self - target) / max((1 - self) * self, eps) / N", "non-differentiable"),
    saves=True)
def bce_backward(g, node, xp):
    a, t = _v(node, xp)
    reduction = node.ctx
    aa = xp.val(node.saved[0])
    den = (1 - a) * a
    raw = (1 - aa) * aa
    eps = 1e-12
    if xp is NP:
        den = np.maximum(den, eps).astype(den.dtype)
    else:
        den = den + xp.mask(raw < eps, den) * eps
    d = g * (a - t) / den
    if reduction == "mean":
        d = d / (aa.size if xp is NP else aa.numel())
    return (d, None)
