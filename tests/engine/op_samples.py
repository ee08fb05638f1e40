"""Sample inputs for every op the engine declares (the sweep of tests/engine/test_op_sweep.py).

In the spirit of PyTorch's OpInfo: each declared op (gradrepl/engine/ops/registry.py
REGISTRY) maps to a list of samples, or to a string saying why it has none. A sample
is its input tensors (shape, value range, requires_grad) and a call written against a
`torch` namespace, so that the very same sample runs under real PyTorch
(scripts/record_op_sweep.py writes tests/data/op_sweep.json from it) and under
gradrepl's engine (the test). Pure Python: no numpy, no torch, no gradrepl imports.

Values are deterministic and stay away from kinks (0 for abs/relu, the bounds of clamp)
and ties, so that central finite differences are meaningful.
"""


class Arg:
    """One input tensor: shape, kind of values, dtype, requires_grad (or explicit values)."""

    def __init__(self, shape, kind="real", grad=True, dtype="float64", values=None):
        self.shape = tuple(shape)
        self.kind = kind
        self.grad = grad and dtype.startswith("float")
        self.dtype = dtype
        self.values = values

    def flat_values(self):
        if self.values is not None:
            flat = []
            stack = [self.values]
            while stack:
                x = stack.pop()
                if isinstance(x, list):
                    stack.extend(reversed(x))
                else:
                    flat.append(x)
            return flat
        n = 1
        for s in self.shape:
            n *= s
        return [_value(i, self.kind) for i in range(n)]

    def nested(self):
        flat = self.flat_values()
        if self.values is not None:
            return self.values
        return _nest(flat, self.shape)


def _value(i, kind):
    base = ((i * 37 + 11) % 23) / 23.0 + i * 0.0013   # distinct values in [0, 1.1)
    if kind == "real":
        return round(base * 4.0 - 2.1 + 0.017, 12)
    if kind == "positive":
        return round(base * 2.0 + 0.5, 12)
    if kind == "unit":
        return round(base * 1.4 - 0.75, 12)
    if kind == "prob":
        return round(base * 0.7 + 0.12, 12)
    raise ValueError(kind)


def _nest(flat, shape):
    if not shape:
        return flat[0]
    step = len(flat) // shape[0] if shape[0] else 0
    return [_nest(flat[k * step:(k + 1) * step], shape[1:]) for k in range(shape[0])]


def R(*shape):
    return Arg(shape)


def P(*shape):
    return Arg(shape, "positive")


def U(*shape):
    return Arg(shape, "unit")


def Pr(*shape, grad=True):
    return Arg(shape, "prob", grad=grad)


def C(*shape, kind="real"):
    """A float64 constant (no gradient)."""
    return Arg(shape, kind, grad=False)


def F32(*shape):
    return Arg(shape, dtype="float32")


def I(values):
    """An int64 index tensor."""
    return Arg(_shape_of(values), dtype="int64", values=values, grad=False)


def B(values):
    return Arg(_shape_of(values), dtype="bool", values=values, grad=False)


def _shape_of(values):
    shape = []
    while isinstance(values, list):
        shape.append(len(values))
        values = values[0] if values else None
    return tuple(shape)


class Sample:
    def __init__(self, *inputs, call=None, args=(), kwargs=None):
        self.inputs = inputs
        self.call = call
        self.args = args
        self.kwargs = kwargs or {}
        self.op = None

    def run(self, torch, *tensors):
        if self.call is not None:
            return self.call(torch, *tensors)
        return getattr(tensors[0], self.op)(*tensors[1:], *self.args, **self.kwargs)


S = Sample


# ----------------------------------------------------------------- helpers for statements
def _setitem_row(torch, x, v):
    y = x * 1
    y[0] = v
    return y


def _setitem_scalar(torch, x):
    y = x * 1
    y[:, 1] = 2.0
    return y


def _setitem_mask(torch, x, m, v):
    y = x.clone()
    y[m] = v
    return y


def _copy(torch, x, v):
    y = x * 1
    y.copy_(v)
    return y


def _zero(torch, x):
    y = x * 1
    y.zero_()
    return y


def _fill(torch, x):
    y = x * 1
    y.fill_(0.5)
    return y


def _fill_tensor(torch, x, v):
    y = x * 1
    y.fill_(v.sum())
    return y


def _dropout(torch, x):
    torch.manual_seed(0)
    return torch.nn.functional.dropout(x, 0.5)


# ----------------------------------------------------------------- the table
SAMPLES = {
    # convert
    "to": [S(R(2, 3), call=lambda torch, x: x.to(torch.float32)),
           S(F32(2, 3), call=lambda torch, x: x.to(torch.float64))],
    "float": [S(R(2, 3))],
    "double": [S(F32(2, 3))],
    "half": [S(R(2, 3))],
    "long": [S(R(2, 3))],
    "int": [S(R(2, 3))],
    "bool": [S(R(2, 3))],
    "type": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: x.type(torch.float32))],
    "cpu": [S(R(2, 3), call=lambda torch, x: (x * 2).cpu())],
    "detach": [S(R(2, 3), call=lambda torch, x: torch.detach(x * 2))],
    # elementwise arithmetic
    "add": [S(R(2, 3), R(2, 3)), S(R(2, 3), R(3)), S(R(2, 3), args=(2.5,)), S(R(2, 3), R(2, 3), kwargs={"alpha": 2}),
            S(R(2, 3), call=lambda torch, x: 1.5 + x)],
    "sub": [S(R(2, 3), R(2, 3)), S(R(2, 1), R(3)), S(R(2, 3), args=(2.5,)), S(R(2, 3), R(2, 3), kwargs={"alpha": 3}),
            S(R(2, 3), call=lambda torch, x: 1.5 - x)],
    "mul": [S(R(2, 3), R(2, 3)), S(R(2, 1), R(3)), S(R(2, 3), args=(2.5,)),
            S(R(2, 3), call=lambda torch, x: 3 * x)],
    "div": [S(R(2, 3), P(2, 3)), S(R(2, 3), P(3)), S(R(2, 3), args=(2.5,)),
            S(R(2, 3), P(2, 3), kwargs={"rounding_mode": "floor"}),
            S(P(2, 3), call=lambda torch, x: 2 / x)],
    "remainder": [S(R(2, 3), P(2, 3), call=lambda torch, x, y: x % y),
                  S(R(2, 3), call=lambda torch, x: x % 1.5)],
    "floor_divide": [S(R(2, 3), P(2, 3), call=lambda torch, x, y: x // y)],
    "pow": [S(R(2, 3), args=(2,)), S(R(2, 3), args=(3,)), S(P(2, 3), args=(0.5,)), S(P(2, 3), R(2, 3)),
            S(R(2, 3), call=lambda torch, x: 2 ** x)],
    "atan2": [S(R(2, 3), R(2, 3)), S(R(2, 3), P(3)), S(R(3), call=lambda torch, x: torch.atan2(x, x.flip(0) * 2)),
              S(I([1, -2, 3]), I([2, 2, -1]))],
    "maximum": [S(R(2, 3), R(2, 3), call=lambda torch, x, y: torch.maximum(x, y))],
    "minimum": [S(R(2, 3), R(2, 3), call=lambda torch, x, y: torch.minimum(x, y))],
    "where": [S(B([[True, False, True], [False, True, True]]), R(2, 3), R(2, 3),
                call=lambda torch, c, x, y: torch.where(c, x, y)),
              S(B([[True, False, True], [False, True, True]]), R(2, 3),
                call=lambda torch, c, x: torch.where(c, x, 0.5))],
    # comparisons and logic
    "eq": [S(R(2, 3), R(2, 3)), S(R(2, 3), args=(0.5,))],
    "ne": [S(R(2, 3), R(2, 3))],
    "lt": [S(R(2, 3), R(2, 3))],
    "le": [S(R(2, 3), args=(0.0,))],
    "gt": [S(R(2, 3), R(2, 3))],
    "ge": [S(R(2, 3), args=(0.0,))],
    "equal": [S(R(2, 3), R(2, 3)), S(R(2, 3), call=lambda torch, x: x.equal(x * 1))],
    "allclose": [S(R(2, 3), call=lambda torch, x: x.allclose(x + 1e-9))],
    "isclose": [S(R(2, 3), R(2, 3))],
    "bitwise_and": [S(I([1, 6, 3]), I([3, 5, 2]), call=lambda torch, x, y: x & y)],
    "bitwise_or": [S(I([1, 6, 3]), I([3, 5, 2]), call=lambda torch, x, y: x | y)],
    "bitwise_xor": [S(B([True, False, True]), B([True, True, False]), call=lambda torch, x, y: x ^ y)],
    "bitwise_not": [S(B([True, False, True]), call=lambda torch, x: ~x), S(I([1, -6, 3]), call=lambda torch, x: ~x)],
    "isnan": [S(Arg((3,), values=[1.0, float("nan"), float("inf")], grad=False))],
    "isinf": [S(Arg((3,), values=[1.0, float("nan"), float("-inf")], grad=False))],
    "isfinite": [S(Arg((3,), values=[1.0, float("nan"), float("inf")], grad=False))],
    "logical_not": [S(B([True, False, True]))],
    # math
    "exp": [S(R(2, 3))], "expm1": [S(R(2, 3))], "log": [S(P(2, 3))], "log2": [S(P(2, 3))], "log10": [S(P(2, 3))],
    "log1p": [S(P(2, 3))], "sqrt": [S(P(2, 3))], "rsqrt": [S(P(2, 3))], "reciprocal": [S(P(2, 3))],
    "sin": [S(R(2, 3))], "cos": [S(R(2, 3))], "tan": [S(U(2, 3))], "sinh": [S(R(2, 3))], "cosh": [S(R(2, 3))],
    "asin": [S(U(2, 3))], "acos": [S(U(2, 3))], "atan": [S(R(2, 3))], "tanh": [S(R(2, 3))],
    "sigmoid": [S(R(2, 3))], "floor": [S(R(2, 3))], "ceil": [S(R(2, 3))],
    "neg": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: -x)],
    "abs": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: abs(x))],
    "relu": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: torch.nn.functional.relu(x))],
    "sign": [S(R(2, 3))], "square": [S(R(2, 3))],
    "round": [S(R(2, 3)), S(R(2, 3), kwargs={"decimals": 1})],
    "clamp": [S(R(2, 3), args=(-0.52, 0.48)), S(R(2, 3), kwargs={"min": 0.11})],
    "clamp_min": [S(R(2, 3), args=(0.11,))],
    "clamp_max": [S(R(2, 3), args=(0.11,))],
    "masked_fill": [S(R(2, 3), B([[True, False, True], [False, False, True]]), args=(0.5,))],
    "leaky_relu": [S(R(2, 3), call=lambda torch, x: torch.nn.functional.leaky_relu(x, 0.1))],
    # indexing
    "__getitem__": [S(R(3, 4), call=lambda torch, x: x[0]),
                    S(R(3, 4), call=lambda torch, x: x[:, 1:3]),
                    S(R(3, 4), call=lambda torch, x: x[1, 2]),
                    S(R(3, 4), call=lambda torch, x: x[:]),
                    S(R(3), call=lambda torch, x: x[None]),
                    S(R(3), call=lambda torch, x: x[:, None]),
                    S(R(3), call=lambda torch, x: x[..., None]),
                    S(R(3, 4), I([2, 0, 2]), call=lambda torch, x, i: x[i]),
                    S(R(3, 4), B([True, False, True]), call=lambda torch, x, m: x[m])],
    "__setitem__": [S(R(3, 4), R(4), call=_setitem_row),
                    S(R(3, 4), call=_setitem_scalar),
                    S(R(3, 4), B([True, False, True]), R(4), call=_setitem_mask)],
    "index_select": [S(R(3, 4), I([2, 0, 2]), call=lambda torch, x, i: x.index_select(1, i)),
                     S(R(3, 4), I([1, 1]), call=lambda torch, x, i: torch.index_select(x, 0, i))],
    "narrow": [S(R(3, 4), args=(1, 1, 2))],
    "select": [S(R(3, 4), args=(0, 1))],
    "gather": [S(R(2, 3), I([[0, 2], [1, 1]]), call=lambda torch, x, i: x.gather(1, i))],
    "copy_": [S(R(2, 3), R(3), call=_copy)],
    "zero_": [S(R(2, 3), call=_zero)],
    "fill_": [S(R(2, 3), call=_fill), S(R(2, 3), R(2), call=_fill_tensor)],
    # linear algebra
    "dot": [S(R(3), R(3))],
    "mv": [S(R(2, 3), R(3))],
    "mm": [S(R(2, 3), R(3, 4))],
    "matmul": [S(R(2, 3), R(3, 4)), S(R(3), R(3, 2)), S(R(2, 3), R(3)), S(R(3), R(3)), S(R(2, 2, 3), R(3, 2)),
               S(R(2, 2, 3), R(2, 3, 2)), S(R(2, 3), R(3, 4), call=lambda torch, x, y: x @ y)],
    "outer": [S(R(3), R(2), call=lambda torch, x, y: torch.outer(x, y))],
    # losses and nn.functional
    "mse_loss": [S(R(2, 3), C(2, 3), call=lambda torch, x, y: torch.nn.functional.mse_loss(x, y)),
                 S(R(2, 3), C(2, 3), call=lambda torch, x, y: torch.nn.functional.mse_loss(x, y, reduction="sum"))],
    "l1_loss": [S(R(2, 3), C(2, 3), call=lambda torch, x, y: torch.nn.functional.l1_loss(x, y))],
    "nll_loss": [S(R(3, 4), I([0, 3, 1]), call=lambda torch, x, t: torch.nn.functional.nll_loss(x, t))],
    "cross_entropy": [S(R(3, 4), I([0, 3, 1]), call=lambda torch, x, t: torch.nn.functional.cross_entropy(x, t)),
                      S(R(3, 4), Pr(3, 4, grad=False),
                        call=lambda torch, x, t: torch.nn.functional.cross_entropy(x, t))],
    "binary_cross_entropy": [S(Pr(2, 3), Pr(2, 3, grad=False),
                               call=lambda torch, x, y: torch.nn.functional.binary_cross_entropy(x, y))],
    "dropout": [S(R(4, 5), call=_dropout)],
    # reductions
    "sum": [S(R(2, 3)), S(R(2, 3), args=(1,)), S(R(2, 3), args=((0, 1),), kwargs={"keepdim": True})],
    "mean": [S(R(2, 3)), S(R(2, 3), args=(0,))],
    "prod": [S(R(2, 3)), S(R(2, 3), args=(1,)),
             S(Arg((2, 3), values=[[1.5, 0.0, -2.0], [0.5, 3.0, 0.25]]), args=(1,))],
    "max": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: x.max(1)[0]), S(R(2, 3), call=lambda torch, x: x.max(1)[1]),
            S(R(2, 3), R(2, 3), call=lambda torch, x, y: x.max(y))],
    "min": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: x.min(0, keepdim=True)[0])],
    "amax": [S(R(2, 3), args=(1,))],
    "argmax": [S(R(2, 3)), S(R(2, 3), args=(1,))],
    "argmin": [S(R(2, 3), args=(0,))],
    "all": [S(B([True, False, True]))],
    "any": [S(B([False, False, True]))],
    "norm": [S(R(2, 3)), S(R(2, 3), args=(1,)), S(R(2, 3), kwargs={"p": 3, "dim": 1})],
    "std": [S(R(2, 3)), S(R(2, 3), args=(1,))],
    "var": [S(R(2, 3)), S(R(2, 3), args=(0,))],
    "softmax": [S(R(2, 3), args=(1,))],
    "log_softmax": [S(R(2, 3), args=(0,))],
    "cumsum": [S(R(2, 3), args=(1,))],
    "logsumexp": [S(R(2, 3), args=(1,))],
    # shape
    "view": [S(R(2, 3), args=(3, 2))],
    "view_as": [S(R(2, 3), C(3, 2))],
    "reshape": [S(R(2, 3), args=(6,)), S(R(2, 3), call=lambda torch, x: x.t().reshape(6))],
    "reshape_as": [S(R(2, 3), C(3, 2))],
    "flatten": [S(R(2, 3))],
    "squeeze": [S(R(2, 1, 3)), S(R(2, 1, 3), args=(1,))],
    "unsqueeze": [S(R(2, 3), args=(0,))],
    "t": [S(R(2, 3))],
    "T": [S(R(2, 3), call=lambda torch, x: x.T)],
    "mT": [S(R(2, 2, 3), call=lambda torch, x: x.mT)],
    "transpose": [S(R(2, 3), args=(0, 1))],
    "permute": [S(R(2, 3, 2), args=(2, 0, 1))],
    "expand": [S(R(3), args=(2, 3))],
    "expand_as": [S(R(3), C(2, 3))],
    "repeat": [S(R(3), args=(2, 1))],
    "contiguous": [S(R(2, 3), call=lambda torch, x: x.t().contiguous())],
    "clone": [S(R(2, 3))],
    "flip": [S(R(2, 3), args=(1,))],
    "split": [S(R(2, 5), call=lambda torch, x: x.split(2, 1)[1]),
              S(R(2, 5), call=lambda torch, x: x.split([1, 4], 1)[1])],
    "chunk": [S(R(2, 5), call=lambda torch, x: x.chunk(2, 1)[0])],
    "unbind": [S(R(2, 3), call=lambda torch, x: x.unbind(1)[2])],
    "cat": [S(R(2, 3), R(1, 3), call=lambda torch, x, y: torch.cat([x, y]))],
    "stack": [S(R(2, 3), R(2, 3), call=lambda torch, x, y: torch.stack([x, y], 1))],
}


# ----------------------------------------------------------------- issue 14: the wider tensor API
# Constant inputs (C) where gradrepl's node differs from PyTorch's (ops composed of others:
# aminmax, std_mean/var_mean, rot90, repeat_interleave, tensor_split, kron, vdot, baddbmm & co.,
# multi_dot, cdist, dist) or where create_graph/second order is not implemented (cumprod,
# logcumsumexp, cross, det, linalg.solve, unfold): their first-order gradients are checked
# by golden cases (tests/data/engine_cases/api_*_grad).
def _inplace_copy(name, *args, **kwargs):
    """x.NAME_(...) on a copy of x (in-place variants of random/fill ops are deterministic after a seed)."""
    def call(torch, x):
        torch.manual_seed(0)
        y = x.detach().clone()
        getattr(y, name)(*args, **kwargs)
        return y
    return call


def _new(name, *args, **kwargs):
    return lambda torch, x: getattr(x, name)(*args, **kwargs)


_NO_GRAD_RANDOM = "draws random numbers in place; its values are checked against PyTorch by tests/data/engine_cases/api_spell_inplace_random"
SAMPLES.update({
    # elementwise math
    "asinh": [S(R(2, 3))], "acosh": [S(Arg((2, 3), "positive"), call=lambda torch, x: (x + 1).acosh())],
    "atanh": [S(U(2, 3))], "erf": [S(R(2, 3))], "erfc": [S(R(2, 3))], "erfinv": [S(U(2, 3))],
    "lgamma": [S(P(2, 3))], "digamma": [S(C(2, 3, kind="positive"))],
    "trunc": [S(C(2, 3))], "frac": [S(R(2, 3))],
    "exp2": [S(R(2, 3))], "deg2rad": [S(R(2, 3))], "rad2deg": [S(R(2, 3))], "sinc": [S(R(2, 3))],
    "i0": [S(C(2, 3))], "logit": [S(Pr(2, 3)), S(Pr(2, 3), args=(0.2,))],
    "hypot": [S(R(2, 3), P(2, 3))], "fmod": [S(R(2, 3), args=(0.7,)), S(R(2, 3), C(2, 3, kind="positive"))],
    "xlogy": [S(R(2, 3), P(2, 3))], "logaddexp": [S(R(2, 3), R(2, 3))], "logaddexp2": [S(R(2, 3), R(2, 3))],
    "copysign": [S(R(2, 3), C(2, 3, kind="positive"))], "fmax": [S(R(2, 3), P(2, 3))], "fmin": [S(R(2, 3), P(2, 3))],
    "heaviside": [S(C(2, 3), C(2, 3))], "gcd": [S(I([12, 18, 7]), I([8, 27, 3]))],
    "lcm": [S(I([4, 6, 5]), I([6, 4, 3]))],
    "lerp": [S(R(2, 3), R(2, 3), args=(0.3,)), S(R(2, 3), R(2, 3), Pr(2, 3))],
    "addcmul": [S(R(2, 3), R(2, 3), R(2, 3), kwargs={"value": 0.5})],
    "addcdiv": [S(R(2, 3), R(2, 3), P(2, 3), kwargs={"value": 2.0})],
    "float_power": [S(P(2, 3), args=(1.5,))], "nan_to_num": [S(R(2, 3))],
    "signbit": [S(R(2, 3))], "positive": [S(R(2, 3))], "sgn": [S(C(2, 3))],
    "expit": "torch.special.expit only (sigmoid's samples cover it)",
    "isposinf": [S(Arg((3,), values=[1.0, float("inf"), float("-inf")], grad=False))],
    "isneginf": [S(Arg((3,), values=[1.0, float("inf"), float("-inf")], grad=False))],
    "isreal": [S(R(2, 3))],
    "logical_and": [S(B([True, False, True]), B([True, True, False]))],
    "logical_or": [S(B([True, False, False]), B([True, True, False]))],
    "logical_xor": [S(B([True, False, True]), B([True, True, False]))],
    "bitwise_left_shift": [S(I([1, 2, -8]), I([1, 2, 3]))], "bitwise_right_shift": [S(I([16, 5, -8]), I([1, 2, 1]))],
    # order statistics and scans
    "sort": [S(R(2, 4), call=lambda torch, x: x.sort(1)[0]), S(R(2, 4), call=lambda torch, x: x.sort(0, True)[0])],
    "argsort": [S(R(2, 4), args=(1,))], "msort": [S(R(3, 2))],
    "topk": [S(R(2, 4), call=lambda torch, x: x.topk(2)[0]), S(R(3, 2), call=lambda torch, x: x.topk(1, 0, False)[0])],
    "median": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: x.median(1)[0])],
    "nanmedian": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: x.nanmedian(0)[0])],
    "kthvalue": [S(R(2, 4), call=lambda torch, x: x.kthvalue(2, 1)[0])],
    "mode": [S(I([[1, 2, 2], [3, 3, 1]]), call=lambda torch, x: x.mode(1)[0])],
    "amin": [S(R(2, 3)), S(R(2, 3), args=(1,))], "aminmax": [S(C(2, 3), call=lambda torch, x: torch.aminmax(x)[1])],
    "cummax": [S(R(2, 4), call=lambda torch, x: x.cummax(1)[0])],
    "cummin": [S(R(2, 4), call=lambda torch, x: x.cummin(0)[0])],
    "cumprod": [S(C(2, 4), args=(1,))], "logcumsumexp": [S(C(2, 4), args=(1,))],
    "nansum": [S(R(2, 3)), S(R(2, 3), args=(1,))], "nanmean": [S(R(2, 3))],
    "count_nonzero": [S(R(2, 3))],
    "std_mean": [S(C(2, 3), call=lambda torch, x: torch.std_mean(x)[0])],
    "var_mean": [S(C(2, 3), call=lambda torch, x: torch.var_mean(x, 1)[1])],
    # arranging
    "diagonal": [S(R(3, 3)), S(R(2, 3, 4), kwargs={"offset": 1, "dim1": 1, "dim2": 2})],
    "diag": [S(R(3, 3)), S(R(3)), S(R(3, 3), args=(1,))], "diag_embed": [S(R(2, 3))],
    "tril": [S(R(3, 3)), S(R(3, 4), args=(-1,))], "triu": [S(R(3, 3)), S(R(3, 4), args=(1,))],
    "trace": [S(R(3, 3))],
    "tril_indices": [S(call=lambda torch: torch.tril_indices(3, 3))],
    "triu_indices": [S(call=lambda torch: torch.triu_indices(3, 4, 1))],
    "fill_diagonal_": [S(C(3, 3), call=lambda torch, x: x.clone().fill_diagonal_(2.0))],
    "hstack": [S(R(2, 3), R(2, 1), call=lambda torch, x, y: torch.hstack([x, y]))],
    "vstack": [S(R(3), R(3), call=lambda torch, x, y: torch.vstack([x, y]))],
    "row_stack": [S(R(3), R(2, 3), call=lambda torch, x, y: torch.row_stack([x, y]))],
    "dstack": [S(R(3), R(3), call=lambda torch, x, y: torch.dstack([x, y]))],
    "column_stack": [S(R(3), R(3, 2), call=lambda torch, x, y: torch.column_stack([x, y]))],
    "atleast_1d": [S(R(), call=lambda torch, x: torch.atleast_1d(x))],
    "atleast_2d": [S(R(3), call=lambda torch, x: torch.atleast_2d(x))],
    "atleast_3d": [S(R(2, 3), call=lambda torch, x: torch.atleast_3d(x))],
    "movedim": [S(R(2, 3, 4), args=(0, -1))], "roll": [S(R(2, 3), args=(1, 1)), S(R(2, 3), args=(2,))],
    "tile": [S(R(2, 3), args=((2, 1),))], "unflatten": [S(R(2, 6), args=(1, (2, 3)))],
    "rot90": [S(C(2, 3)), S(C(2, 3), args=(3,))], "fliplr": [S(R(2, 3))], "flipud": [S(R(2, 3))],
    "swapdims": [S(R(2, 3), args=(0, 1))],
    "repeat_interleave": [S(C(3), args=(2,)), S(C(2, 3), I([1, 0, 2]), call=lambda torch, x, r:
                                                 x.repeat_interleave(r, 1))],
    "tensor_split": [S(C(7), call=lambda torch, x: torch.tensor_split(x, 3)[2])],
    "meshgrid": [S(R(2), R(3), call=lambda torch, x, y: torch.meshgrid(x, y, indexing="ij")[1])],
    "broadcast_to": [S(R(3), args=((2, 3),))], "unfold": [S(C(2, 5), args=(1, 2, 2))],
    # products
    "bmm": [S(R(2, 2, 3), R(2, 3, 2))],
    "einsum": [S(R(2, 3), R(3, 2), call=lambda torch, x, y: torch.einsum("ij,jk->ik", x, y)),
               S(R(3, 3), call=lambda torch, x: torch.einsum("ii", x)),
               S(R(2, 3), R(2, 3), call=lambda torch, x, y: torch.einsum("bi,bi->b", x, y))],
    "inner": [S(R(2, 3), R(4, 3))], "cross": [S(C(2, 3), C(2, 3), kwargs={"dim": 1})],
    "kron": [S(C(2, 2), C(2, 3))], "diff": [S(R(2, 4)), S(R(5), kwargs={"n": 2})],
    "tensordot": [S(R(2, 3), R(3, 4), call=lambda torch, x, y: torch.tensordot(x, y, 1))],
    "vdot": [S(C(3), C(3))], "baddbmm": [S(C(2, 2, 2), C(2, 2, 3), C(2, 3, 2))],
    "addbmm": [S(C(2, 2), C(2, 2, 3), C(2, 3, 2))], "addmv": [S(C(2), C(2, 3), C(3))],
    "addr": [S(C(2, 3), C(2), C(3))],
    "chain_matmul": [S(C(2, 3), C(3, 2), call=lambda torch, x, y: torch.linalg.multi_dot([x, y]))],
    "dist": [S(C(2, 3), C(2, 3)), S(C(2, 3), C(2, 3), args=(1,))],
    "cdist": [S(C(2, 3), C(4, 3), call=lambda torch, x, y: torch.cdist(x, y))],
    "cartesian_prod": [S(R(2), R(3), call=lambda torch, x, y: torch.cartesian_prod(x, y))],
    # linear algebra
    "det": [S(C(3, 3))], "inverse": [S(R(3, 3))],
    "linalg_solve": [S(C(3, 3), C(3), call=lambda torch, a, b: torch.linalg.solve(a, b)),
                     S(C(3, 3), C(3, 2), call=lambda torch, a, b: torch.linalg.solve(a, b))],
    "matrix_power": [S(R(2, 2), args=(3,))],
    "svd": [S(C(3, 2), call=lambda torch, x: torch.svd(x)[1])],
    # indices
    "scatter": [S(R(2, 3), R(2, 3), I([[0, 1, 2], [2, 0, 1]]),
                  call=lambda torch, x, s, i: x.scatter(1, i, s)),
                S(R(3, 3), I([[0, 1, 2]]), call=lambda torch, x, i: x.scatter(0, i, 0.5))],
    "scatter_add": [S(R(2, 4), R(2, 3), I([[0, 0, 3], [1, 2, 1]]),
                      call=lambda torch, x, s, i: x.scatter_add(1, i, s))],
    "scatter_reduce": [S(C(3), I([0, 0, 2]), C(3), call=lambda torch, x, i, s: x.scatter_reduce(0, i, s, "amax"))],
    "index_add": [S(R(3, 2), I([0, 2, 0]), R(3, 2), call=lambda torch, x, i, s: x.index_add(0, i, s, alpha=2))],
    "index_fill": [S(C(4), I([1, 2]), call=lambda torch, x, i: x.index_fill(0, i, -1.0))],
    "index_copy": [S(C(2, 2), I([1, 0]), C(2, 2), call=lambda torch, x, i, s: x.index_copy(0, i, s))],
    "take": [S(R(2, 3), I([0, 5, 2, 5]))],
    "take_along_dim": [S(R(2, 3), I([[0], [2]]), call=lambda torch, x, i: torch.take_along_dim(x, i, 1))],
    "masked_select": [S(R(2, 3), B([[True, False, True], [False, True, True]]))],
    "nonzero": [S(I([[0, 1], [2, 0]]))], "argwhere": [S(I([0, 3, 0, 4]))],
    "unique": [S(I([3, 1, 3, 2]))], "unique_consecutive": [S(I([1, 1, 2, 2, 3, 1]))],
    "bincount": [S(I([0, 1, 1, 3]))],
    "bucketize": [S(C(3), C(3), call=lambda torch, x, b: torch.bucketize(x, b.sort()[0]))],
    "searchsorted": [S(C(4), C(2), call=lambda torch, s, x: torch.searchsorted(s.sort()[0], x))],
    "histc": [S(C(4), kwargs={"bins": 4, "min": -2, "max": 2})],
    # sampling and factories
    "normal_": [S(C(2, 3), call=_inplace_copy("normal_", 1.0, 2.0))],
    "uniform_": [S(C(2, 3), call=_inplace_copy("uniform_", -1.0, 1.0))],
    "random_": [S(C(2, 3), call=_inplace_copy("random_", 0, 10))],
    "exponential_": [S(C(2, 3), call=_inplace_copy("exponential_"))],
    "bernoulli_": [S(C(2, 3), call=_inplace_copy("bernoulli_", 0.5))],
    "cauchy_": _NO_GRAD_RANDOM, "log_normal_": _NO_GRAD_RANDOM,
    "new_zeros": [S(R(2, 3), call=_new("new_zeros", 2))], "new_ones": [S(R(2, 3), call=_new("new_ones", (1, 2)))],
    "new_empty": [S(R(2, 3), call=lambda torch, x: x.new_empty(2).shape[0] * 1.0)],
    "new_full": [S(R(2, 3), call=_new("new_full", (2,), 7.0))],
    "new_tensor": [S(R(2, 3), call=_new("new_tensor", [1, 2]))],
    # metadata, devices, hooks: no values to sweep
    "stride": [S(R(2, 3), call=lambda torch, x: x.t().stride()[0])],
    "storage_offset": [S(R(2, 3), call=lambda torch, x: x[1].storage_offset())],
    "data_ptr": "an address; compared only with another data_ptr (tests/engine/test_api_extras.py)",
    "is_signed": [S(R(2, 3), call=lambda torch, x: x.is_signed())],
    "is_complex": [S(R(2, 3), call=lambda torch, x: x.is_complex())],
    "nbytes": [S(R(2, 3), call=lambda torch, x: x.nbytes)], "itemsize": [S(R(2, 3), call=lambda torch, x: x.itemsize)],
    "layout": "torch.strided, a constant (golden case api_tensor_meta)",
    "is_sparse": [S(R(2, 3), call=lambda torch, x: x.is_sparse)],
    "is_quantized": [S(R(2, 3), call=lambda torch, x: x.is_quantized)],
    "is_inference": [S(R(2, 3), call=lambda torch, x: x.is_inference())],
    "cuda": "raises 'Torch not compiled with CUDA enabled' (golden case api_device_cuda_method)",
    "get_device": [S(R(2, 3), call=lambda torch, x: x.get_device())],
    "register_post_accumulate_grad_hook": "a hook registration (golden case api_autograd_post_acc_hook)",
})

for _op, _samples in SAMPLES.items():
    if not isinstance(_samples, str):
        for _s in _samples:
            _s.op = _op


def sample_ids():
    """(id, op, sample) for every sample: ids like `add:0`."""
    out = []
    for op, samples in SAMPLES.items():
        if isinstance(samples, str):
            continue
        for k, s in enumerate(samples):
            out.append((f"{op}:{k}", op, s))
    return out


def cotangent(shape):
    """The fixed vector v of the scalar sum(out * v) whose gradients are compared."""
    return Arg(shape, "real", grad=False).nested()
