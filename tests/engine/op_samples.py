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
        self.position = 0   # set by Sample: inputs at different positions get different values

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
        return [_value(i + 5 * self.position, self.kind) for i in range(n)]

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
        for k, arg in enumerate(inputs):
            arg.position = k
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


def _draw(method, *args):
    """x.method_(*args) on a copy, after torch.manual_seed(0): PyTorch's own numbers."""
    def call(torch, x):
        torch.manual_seed(0)
        y = x.detach().clone()
        getattr(y, method)(*args)
        return y
    return call


def _fn(name, *args, **kwargs):
    """torch.nn.functional.NAME(tensors..., *args, **kwargs)."""
    def call(torch, *tensors):
        return getattr(torch.nn.functional, name)(*tensors, *args, **kwargs)
    return call


def _fill_diagonal(torch, x):
    y = x * 1
    y.fill_diagonal_(0.5)
    return y


def _post_accumulate_hook(torch, x):
    seen = []
    x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.sum().item()))
    (x * 2).sum().backward()
    return seen[0]


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
    "bfloat16": [S(R(2, 3))],
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
    "maximum": [S(R(2, 3), R(2, 3), call=lambda torch, x, y: torch.maximum(x, y)), S(R(2, 3), R(3))],
    "minimum": [S(R(2, 3), R(2, 3), call=lambda torch, x, y: torch.minimum(x, y)), S(R(2, 3), R(3))],
    "where_method": [S(R(2, 3), R(3), call=lambda torch, x, y: x.where(x > 0.1, y)),
                     S(R(2, 3), call=lambda torch, x: x.where(x < 0.2, 0.5))],
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
    "masked_fill": [S(R(2, 3), B([[True, False, True], [False, False, True]]), args=(0.5,)),
                    S(R(2, 3), B([True, False, True]), R(), call=lambda torch, x, m, v: x.masked_fill(m, v)),
                    S(C(2, 3), B([[True], [False]]), R(), call=lambda torch, x, m, v: torch.masked_fill(x, m, v * 2))],
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
    # tensor metadata and factories of the tensor API
    "data_ptr": [S(R(2, 3), call=lambda torch, x: isinstance(x.data_ptr(), int))],
    "is_complex": [S(R(2, 3))],
    "is_signed": [S(R(2, 3)), S(B([True, False]))],
    "is_quantized": [S(R(2, 3), call=lambda torch, x: x.is_quantized)],
    "is_sparse": [S(R(2, 3), call=lambda torch, x: x.is_sparse)],
    "itemsize": [S(R(2, 3), call=lambda torch, x: x.itemsize)],
    "nbytes": [S(R(2, 3), call=lambda torch, x: x.nbytes)],
    "layout": [S(R(2, 3), call=lambda torch, x: str(x.layout))],
    "get_device": [S(R(2, 3))],
    "cuda": [S(R(2, 3))],
    "stride": [S(R(2, 3), call=lambda torch, x: list(x.stride())), S(R(2, 3), call=lambda torch, x: x.t().stride(0))],
    "storage_offset": [S(R(3, 4), call=lambda torch, x: x[1:, 2:].storage_offset())],
    "volatile": [S(R(2, 3), call=lambda torch, x: x.volatile)],
    "storage": [S(R(3, 4), call=lambda torch, x: [x[1:].storage().size(), x.storage().tolist() == x.flatten().tolist()])],
    "new_zeros": [S(R(2, 3), args=(2, 2))],
    "new_ones": [S(R(2, 3), call=lambda torch, x: x.new_ones((3,), dtype=torch.int64))],
    "new_full": [S(R(2, 3), args=((2,), 1.5))],
    "new_empty": [S(R(2, 3), call=lambda torch, x: list(x.new_empty(2, 3).shape))],
    "new_tensor": [S(R(2, 3), args=([1.0, 2.0],))],
    "bitwise_left_shift": [S(I([1, 6, 3]), I([1, 2, 0]), call=lambda torch, x, y: x << y),
                           S(I([1, 6, 3]), I([1, 2, 0]))],
    "bitwise_right_shift": [S(I([1, 6, 3]), I([1, 2, 0]), call=lambda torch, x, y: x >> y)],
    # random draws (PyTorch's numbers after manual_seed)
    "normal_": [S(R(2, 3), call=_draw("normal_", 1.0, 2.0))],
    "uniform_": [S(R(2, 3), call=_draw("uniform_", -1.0, 1.0))],
    "bernoulli_": [S(R(2, 3), call=_draw("bernoulli_", 0.3))],
    "cauchy_": [S(R(2, 3), call=_draw("cauchy_"))],
    "exponential_": [S(R(2, 3), call=_draw("exponential_", 2.0))],
    "log_normal_": [S(R(2, 3), call=_draw("log_normal_"))],
    "random_": [S(R(2, 3), call=_draw("random_", 0, 10))],
    # nn kernels
    "addmm": [S(R(2, 4), R(2, 3), R(3, 4)), S(R(4), R(2, 3), R(3, 4), call=lambda torch, b, x, w: torch.addmm(b, x, w))],
    "linear": [S(R(2, 3), R(4, 3), R(4), call=_fn("linear")), S(R(3), R(4, 3), call=_fn("linear"))],
    "conv1d": [S(R(1, 2, 5), R(3, 2, 2), R(3), call=_fn("conv1d")),
               S(R(1, 2, 5), R(2, 1, 3), call=_fn("conv1d", stride=2, padding=1, groups=2))],
    "conv2d": [S(R(1, 1, 4, 4), R(2, 1, 2, 2), R(2), call=_fn("conv2d")),
               S(R(1, 2, 3, 3), R(1, 2, 2, 2), call=_fn("conv2d", padding=1))],
    "avg_pool2d": [S(R(1, 1, 4, 4), call=_fn("avg_pool2d", 2))],
    "max_pool2d": [S(R(1, 1, 4, 4), call=_fn("max_pool2d", 2))],
    "ctc_loss": [S(R(6, 2, 4), I([[1, 2, 2], [3, 1, 0]]), call=lambda torch, x, t: torch.nn.functional.ctc_loss(
                     x.log_softmax(2), t, (6, 5), (3, 2))),
                 S(R(5, 2, 3), I([1, 2, 2, 1]), call=lambda torch, x, t: torch.nn.functional.ctc_loss(
                     x.log_softmax(2), t, (5, 4), (3, 1), reduction="none")),
                 S(R(5, 4), I([1, 3]), call=lambda torch, x, t: torch.ctc_loss(
                     x.log_softmax(1), t, (5,), (2,), 0, 2, False))],
    "fractional_max_pool2d": [S(R(1, 2, 6, 7), call=lambda torch, x: (torch.manual_seed(0), torch.nn.functional.
                                                                     fractional_max_pool2d(x, 2, output_size=(3, 4)))[1])],
    "fractional_max_pool2d_with_indices": [S(R(2, 5, 5), call=lambda torch, x: (
        torch.manual_seed(1), torch.nn.functional.fractional_max_pool2d_with_indices(x, 2, output_ratio=(0.5, 0.5)))[1][0])],
    "fractional_max_pool3d": [S(R(1, 2, 5, 4, 6), call=lambda torch, x: (torch.manual_seed(2), torch.nn.functional.
                                                                        fractional_max_pool3d(x, 2, output_size=2))[1])],
    "fractional_max_pool3d_with_indices": [S(R(1, 4, 5, 4), call=lambda torch, x: (
        torch.manual_seed(3), torch.nn.functional.fractional_max_pool3d_with_indices(x, (2, 2, 1),
                                                                                     output_size=(2, 2, 3)))[1][0])],
    "max_pool3d": [S(R(1, 2, 4, 4, 3), call=_fn("max_pool3d", 2)),
                   S(R(2, 3, 4, 5), call=_fn("max_pool3d", (2, 3, 2), stride=1, padding=1))],
    "max_pool3d_with_indices": [S(R(1, 1, 3, 4, 4), call=lambda torch, x: torch.nn.functional.max_pool3d_with_indices(
        x, 2, return_indices=True)[0])],
    "avg_pool3d": [S(R(1, 2, 4, 4, 3), call=_fn("avg_pool3d", 2)),
                   S(R(2, 3, 4, 5), call=_fn("avg_pool3d", 3, stride=2, padding=1, count_include_pad=False))],
    "adaptive_avg_pool3d": [S(R(1, 2, 5, 4, 3), call=_fn("adaptive_avg_pool3d", (2, 3, 2)))],
    "adaptive_max_pool3d": [S(R(1, 2, 5, 4, 3), call=_fn("adaptive_max_pool3d", (2, 3, 2)))],
    "adaptive_max_pool3d_with_indices": [S(R(1, 5, 4, 3), call=lambda torch, x:
                                           torch.nn.functional.adaptive_max_pool3d_with_indices(x, 2)[0])],
    "max_unpool3d": [S(R(1, 1, 1, 2, 2), I([[[[[0, 7], [21, 30]]]]]), call=_fn("max_unpool3d", 2))],
    "batch_norm": [S(R(4, 3), C(3), C(3, kind="positive"), R(3), R(3), call=_fn("batch_norm", training=True)),
                   S(R(4, 3), C(3), C(3, kind="positive"), call=_fn("batch_norm"))],
    "layer_norm": [S(R(2, 3), R(3), R(3), call=lambda torch, x, w, b: torch.nn.functional.layer_norm(x, (3,), w, b))],
    "embedding": [S(I([[0, 2], [4, 2]]), R(5, 3), call=_fn("embedding"))],
    "rrelu_": [S(R(2, 3), call=lambda torch, x: torch.nn.functional.rrelu_(x * 1)),
               S(R(5), call=lambda torch, x: torch.rrelu_(x * 1, 0.1, 0.3))],
    "channel_shuffle": [S(R(2, 6, 2, 2), call=_fn("channel_shuffle", 3))],
    "max_unpool1d": [S(R(1, 2, 3), I([[[1, 2, 5], [0, 3, 4]]]), call=_fn("max_unpool1d", 2))],
    "max_unpool2d": [S(R(1, 2, 2, 2), I([[[[0, 3], [9, 14]], [[1, 6], [8, 15]]]]), call=_fn("max_unpool2d", 2)),
                     S(R(1, 2, 2, 2), I([[[[0, 3], [9, 14]], [[1, 6], [8, 15]]]]),
                       call=_fn("max_unpool2d", 2, output_size=(5, 5)))],
    "embedding_bag": [S(I([0, 2, 4, 2, 1]), R(5, 3), I([0, 2]), call=_fn("embedding_bag")),
                      S(I([[0, 2], [4, 2]]), R(5, 3), call=_fn("embedding_bag", mode="sum", padding_idx=4)),
                      S(I([0, 2, 4, 2, 1]), R(5, 3), I([0, 3, 3]), call=_fn("embedding_bag", mode="max")),
                      S(I([0, 2, 4, 2]), R(5, 3), I([0, 1]), R(4),
                        call=lambda torch, i, w, o, p: torch.nn.functional.embedding_bag(i, w, o, mode="sum",
                                                                                         per_sample_weights=p))],
    "one_hot": [S(I([0, 2, 1]), call=_fn("one_hot", 3))],
    "pad": [S(R(2, 3), call=_fn("pad", (1, 2))), S(R(2, 3), call=_fn("pad", (0, -1, 1, 0), value=0.5))],
    "gelu": [S(R(2, 3), call=_fn("gelu")), S(R(2, 3), call=_fn("gelu", approximate="tanh"))],
    "elu": [S(R(2, 3), call=_fn("elu"))],
    "celu": [S(R(2, 3), call=_fn("celu", 0.5))],
    "selu": [S(R(2, 3), call=_fn("selu"))],
    "silu": [S(R(2, 3), call=_fn("silu"))],
    "mish": [S(R(2, 3), call=_fn("mish"))],
    "softplus": [S(R(2, 3), call=_fn("softplus")), S(R(2, 3), call=_fn("softplus", beta=2.0, threshold=1.0))],
    "hardtanh": [S(R(2, 3), call=_fn("hardtanh"))],
    "hardsigmoid": [S(R(2, 3), call=_fn("hardsigmoid"))],
    "hardswish": [S(R(2, 3), call=_fn("hardswish"))],
    "logsigmoid": [S(R(2, 3), call=_fn("logsigmoid"))],
    "relu6": [S(R(2, 3), call=lambda torch, x: torch.nn.functional.relu6(x * 4))],
    "binary_cross_entropy_with_logits": [S(R(2, 3), Pr(2, 3, grad=False), call=_fn("binary_cross_entropy_with_logits"))],
    "huber_loss": [S(R(2, 3), C(2, 3), call=_fn("huber_loss")), S(R(2, 3), C(2, 3), call=_fn("huber_loss", delta=0.5))],
    "smooth_l1_loss": [S(R(2, 3), C(2, 3), call=_fn("smooth_l1_loss"))],
    # tensor API breadth: math
    "asinh": [S(R(2, 3))], "atanh": [S(U(2, 3))], "erf": [S(R(2, 3))], "erfc": [S(R(2, 3))], "erfinv": [S(U(2, 3))],
    "acosh": [S(P(2, 3), call=lambda torch, x: (x + 1.0).acosh())],
    "lgamma": [S(P(2, 3))], "digamma": [S(P(2, 3))], "trunc": [S(R(2, 3))], "frac": [S(R(2, 3))],
    "exp2": [S(R(2, 3))], "deg2rad": [S(R(2, 3))], "rad2deg": [S(R(2, 3))], "sinc": [S(R(2, 3))], "i0": [S(R(2, 3))],
    "logit": [S(Pr(2, 3))],
    "expit": [S(R(2, 3), call=lambda torch, x: torch.special.expit(x))],
    "hypot": [S(R(2, 3), R(2, 3))], "fmod": [S(R(2, 3), P(2, 3)), S(R(2, 3), args=(1.5,))],
    "xlogy": [S(P(2, 3), P(2, 3))], "logaddexp": [S(R(2, 3), R(2, 3))], "logaddexp2": [S(R(2, 3), R(2, 3))],
    "copysign": [S(R(2, 3), R(2, 3))], "fmax": [S(R(2, 3), R(2, 3))], "fmin": [S(R(2, 3), R(2, 3))],
    "heaviside": [S(R(2, 3), C(2, 3))], "gcd": [S(I([4, 6, 9]), I([6, 4, 3]))], "lcm": [S(I([4, 6, 9]), I([6, 4, 3]))],
    "lerp": [S(R(2, 3), R(2, 3), args=(0.3,)), S(R(2, 3), R(2, 3), Pr(2, 3))],
    "addcmul": [S(R(2, 3), R(2, 3), R(2, 3), kwargs={"value": 0.5})],
    "addcdiv": [S(R(2, 3), R(2, 3), P(2, 3), kwargs={"value": 0.5})],
    "float_power": [S(R(2, 3), args=(2,))],
    "nan_to_num": [S(Arg((4,), values=[float("nan"), float("inf"), float("-inf"), 1.5], grad=False))],
    "signbit": [S(R(2, 3))], "positive": [S(R(2, 3))], "sgn": [S(R(2, 3))],
    "isposinf": [S(Arg((3,), values=[1.0, float("inf"), float("-inf")], grad=False))],
    "isneginf": [S(Arg((3,), values=[1.0, float("inf"), float("-inf")], grad=False))],
    "isreal": [S(R(2, 3))],
    "logical_and": [S(B([True, False, True]), B([True, True, False]))],
    "logical_or": [S(B([True, False, False]), B([True, True, False]))],
    "logical_xor": [S(B([True, False, True]), B([True, True, False]))],
    # tensor API breadth: arranging
    "diagonal": [S(R(3, 3)), S(R(2, 3, 3), args=(1, 1, 2))],
    "diag_embed": [S(R(2, 3))],
    "diag": [S(R(3)), S(R(3, 3), args=(1,))],
    "tril": [S(R(3, 3))], "triu": [S(R(3, 3), args=(1,))], "trace": [S(R(3, 3))],
    "tril_indices": [S(call=lambda torch: torch.tril_indices(3, 3))],
    "triu_indices": [S(call=lambda torch: torch.triu_indices(3, 4, 1))],
    "fill_diagonal_": [S(R(3, 3), call=_fill_diagonal)],
    "hstack": [S(R(2, 3), R(2, 1), call=lambda torch, x, y: torch.hstack([x, y]))],
    "vstack": [S(R(2, 3), R(3), call=lambda torch, x, y: torch.vstack([x, y]))],
    "row_stack": [S(R(2, 3), R(3), call=lambda torch, x, y: torch.row_stack([x, y]))],
    "dstack": [S(R(2, 3), R(2, 3), call=lambda torch, x, y: torch.dstack([x, y]))],
    "column_stack": [S(R(3), R(3, 2), call=lambda torch, x, y: torch.column_stack([x, y]))],
    "atleast_1d": [S(Arg((), grad=True), call=lambda torch, x: torch.atleast_1d(x))],
    "atleast_2d": [S(R(3), call=lambda torch, x: torch.atleast_2d(x))],
    "atleast_3d": [S(R(2, 3), call=lambda torch, x: torch.atleast_3d(x))],
    "movedim": [S(R(2, 3, 4), args=(0, 2))],
    "roll": [S(R(2, 3), args=(1, 1)), S(R(2, 3), args=(2,))],
    "tile": [S(R(2, 3), args=(2, 1))],
    "unflatten": [S(R(2, 6), args=(1, (2, 3)))],
    "rot90": [S(R(2, 3))], "fliplr": [S(R(2, 3))], "flipud": [S(R(2, 3))],
    "resize_": [S(C(2, 3), call=lambda torch, x: x.clone().resize_(3, 2)),
                S(C(2, 3), call=lambda torch, x: x.clone().resize_(4))],
    "resize_as_": [S(C(2, 3), C(6), call=lambda torch, x, y: x.clone().resize_as_(y))],
    "swapdims": [S(R(2, 3), args=(0, 1)), S(R(2, 3), call=lambda torch, x: (x * 1).swapdims_(0, 1))],
    "repeat_interleave": [S(R(3), args=(2,)), S(R(2, 3), I([1, 2]), call=lambda torch, x, r: x.repeat_interleave(r, 0))],
    "tensor_split": [S(R(2, 5), call=lambda torch, x: x.tensor_split(3, 1)[1])],
    "meshgrid": [S(R(2), R(3), call=lambda torch, x, y: torch.meshgrid(x, y, indexing="ij")[1])],
    "broadcast_to": [S(R(3), args=((2, 3),))],
    "unfold": [S(R(6), args=(0, 2, 1))],
    "bmm": [S(R(2, 2, 3), R(2, 3, 2))],
    "einsum": [S(R(2, 3), R(3, 2), call=lambda torch, x, y: torch.einsum("ij,jk->ik", x, y))],
    "inner": [S(R(3), R(3))],
    "cross": [S(R(2, 3), R(2, 3), kwargs={"dim": 1})],
    "kron": [S(R(2, 2), R(2, 1))],
    "diff": [S(R(2, 4))],
    "tensordot": [S(R(2, 3), R(3, 2), call=lambda torch, x, y: torch.tensordot(x, y, dims=1))],
    "vdot": [S(R(3), R(3))],
    "baddbmm": [S(R(2, 2, 2), R(2, 2, 3), R(2, 3, 2))],
    "addmv": [S(R(2), R(2, 3), R(3))],
    "addr": [S(R(2, 3), R(2), R(3))],
    "addbmm": [S(R(2, 2), R(2, 2, 3), R(2, 3, 2))],
    "chain_matmul": [S(R(2, 3), R(3, 2), R(2, 2), call=lambda torch, a, b, c: torch.chain_matmul(a, b, c))],
    "dist": [S(R(2, 3), R(2, 3))],
    "cdist": [S(R(2, 3), R(4, 3), call=lambda torch, x, y: torch.cdist(x, y))],
    "hardshrink": [S(R(2, 3)), S(R(2, 3), call=_fn("hardshrink", 0.9))],
    "softshrink": [S(R(2, 3), call=_fn("softshrink")), S(R(2, 3), call=_fn("softshrink", 0.3))],
    "threshold": [S(R(2, 3), call=lambda torch, x: torch.threshold(x, 0.1, -2.0)),
                  S(R(2, 3), call=_fn("threshold", -0.4, 0.5))],
    "threshold_": [S(R(2, 3), call=lambda torch, x: torch.nn.functional.threshold_(x * 1, 0.1, 0.0))],
    "glu": [S(R(2, 4), call=_fn("glu")), S(R(4, 3), call=_fn("glu", 0))],
    "pairwise_distance": [S(R(2, 3), R(2, 3), call=_fn("pairwise_distance")),
                          S(R(2, 3), R(3), call=_fn("pairwise_distance", p=1.5, keepdim=True))],
    **{name: "in-place functional form (EluBackward0 where PyTorch shows EluBackward1): golden case "
             "tests/data/engine_cases/api_functional_extras.py"
       for name in ("elu_", "selu_", "celu_", "hardtanh_", "leaky_relu_", "relu_")},
    "ravel": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: x.t().ravel())],
    "hsplit": [S(R(2, 4), call=lambda torch, x: torch.hsplit(x, 2)[1]), S(R(2, 4), call=lambda torch, x: x.hsplit([1])[1])],
    "vsplit": [S(R(4, 2), call=lambda torch, x: torch.vsplit(x, 2)[0])],
    "dsplit": [S(R(1, 2, 4), call=lambda torch, x: torch.dsplit(x, [3])[0])],
    "split_with_sizes": [S(R(2, 5), call=lambda torch, x: x.split_with_sizes([2, 3], 1)[1])],
    "diagflat": [S(R(3)), S(R(2, 2), call=lambda torch, x: torch.diagflat(x, -1))],
    "sum_to_size": [S(R(2, 3), args=(1, 3)), S(R(2, 3), args=(2, 1)), S(R(2, 3), call=lambda torch, x: x.sum_to_size(3))],
    "mH": [S(R(2, 3), call=lambda torch, x: x.mH)],
    "H": [S(R(2, 3), call=lambda torch, x: x.H)],
    "adjoint": [S(R(2, 2, 3))],
    "block_diag": [S(R(2, 2), R(3), R(), call=lambda torch, x, y, z: torch.block_diag(x, y, z))],
    "combinations": [S(R(4), call=lambda torch, x: torch.combinations(x)),
                     S(R(3), call=lambda torch, x: torch.combinations(x, 2, with_replacement=True))],
    "broadcast_tensors": [S(R(3), R(2, 1), call=lambda torch, x, y: torch.broadcast_tensors(x, y)[0] * 2 + torch.broadcast_tensors(x, y)[1])],
    "isin": [S(I([1, 2, 3, 4]), I([2, 4]), call=lambda torch, x, y: torch.isin(x, y))],
    "unravel_index": [S(I([5, 7, 11]), call=lambda torch, x: torch.unravel_index(x, (3, 4))[1])],
    "vander": [S(R(3), call=lambda torch, x: torch.vander(x)), S(R(2), call=lambda torch, x: torch.vander(x, 4, True))],
    "cov": [S(R(3, 4)), S(R(5), call=lambda torch, x: torch.cov(x, correction=0))],
    "corrcoef": [S(R(3, 4))],
    "trapezoid": [S(R(2, 4), call=lambda torch, x: torch.trapezoid(x)),
                  S(R(2, 4), P(4), call=lambda torch, y, x: torch.trapezoid(y, x.cumsum(0)))],
    "trapz": [S(R(3, 2), call=lambda torch, x: torch.trapz(x, dx=0.5, dim=0))],
    "cumulative_trapezoid": [S(R(2, 4), call=lambda torch, x: torch.cumulative_trapezoid(x))],
    "type_as": [S(R(2, 3), call=lambda torch, x: x.type_as(x.float()))],
    "short": [S(R(2, 3), call=lambda torch, x: (x * 10).short())],
    "char": [S(R(2, 3), call=lambda torch, x: (x * 10).char())],
    "byte": [S(P(2, 3), call=lambda torch, x: (x * 10).byte())],
    "is_cpu": [S(R(2), call=lambda torch, x: x.is_cpu)],
    "is_neg": [S(R(2))],
    "is_same_size": [S(R(2, 3), R(2, 3)), S(R(2, 3), R(3))],
    "is_nonzero": [S(R(1)), S(I([0]), call=lambda torch, x: torch.is_nonzero(x))],
    "resolve_neg": [S(R(2, 3)), S(R(2), call=lambda torch, x: torch.resolve_neg(x) * 2)],
    "resolve_conj": [S(R(2, 3))],
    "apply_": [S(R(2, 3), call=lambda torch, x: x.detach().t().apply_(lambda v: v * 2.7 + 1)),
               S(I([[1, -2, 3]]), call=lambda torch, x: x.clone().apply_(lambda v: v * 1.5))],
    "map_": [S(R(2, 3), R(3), call=lambda torch, x, y: x.detach().clone().map_(y.detach(), lambda a, b: a - b * 3))],
    "map2_": [S(R(2, 3), R(3), R(2, 1),
                call=lambda torch, x, y, z: x.detach().clone().map2_(y.detach(), z.detach(), lambda a, b, c: a * b + c))],
    "cartesian_prod": [S(R(2), R(3), call=lambda torch, x, y: torch.cartesian_prod(x, y))],
    # tensor API breadth: sorting and reductions
    "quantile": [S(R(3, 4), call=lambda torch, x: torch.quantile(x, 0.3)),
                 S(R(3, 4), call=lambda torch, x: x.quantile(torch.tensor([0.2, 0.8], dtype=torch.float64), dim=1,
                                                             keepdim=True)),
                 S(R(3, 4), call=lambda torch, x: torch.quantile(x, 0.6, dim=0, interpolation="midpoint")),
                 S(R(5), call=lambda torch, x: x.quantile(0.5, interpolation="nearest"))],
    "nanquantile": [S(R(3, 4), call=lambda torch, x: torch.nanquantile(x, 0.4, dim=1))],
    "sort": [S(R(2, 3), call=lambda torch, x: x.sort(1)[0]), S(R(2, 3), call=lambda torch, x: x.sort(0, True)[1])],
    "argsort": [S(R(2, 3))],
    "msort": [S(R(3, 2))],
    "topk": [S(R(2, 4), call=lambda torch, x: x.topk(2)[0])],
    "median": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: x.median(1)[0])],
    "nanmedian": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: x.nanmedian(1)[0])],
    "kthvalue": [S(R(2, 4), call=lambda torch, x: x.kthvalue(2, 1)[0])],
    "mode": [S(Arg((2, 3), values=[[1.5, 2.5, 2.5], [3.5, 3.5, 1.5]]), call=lambda torch, x: x.mode(1)[0])],
    "amin": [S(R(2, 3), args=(1,))],
    "aminmax": [S(R(2, 3), call=lambda torch, x: x.aminmax()[0]),
                S(R(2, 3), call=lambda torch, x: x.aminmax(dim=1)[1])],
    "cummax": [S(R(2, 3), call=lambda torch, x: x.cummax(1)[0])],
    "cummin": [S(R(2, 3), call=lambda torch, x: x.cummin(1)[0])],
    "cumprod": [S(R(2, 3), args=(1,))],
    "logcumsumexp": [S(R(2, 3), args=(1,))],
    "nansum": [S(R(2, 3)), S(R(2, 3), args=(1,))],
    "nanmean": [S(R(2, 3), args=(0,))],
    "count_nonzero": [S(I([[0, 2, 0], [1, 1, 0]])), S(I([[0, 2, 0], [1, 1, 0]]), args=(1,))],
    "std_mean": [S(R(2, 3), call=lambda torch, x: torch.std_mean(x)[0]),
                 S(R(2, 3), call=lambda torch, x: torch.std_mean(x, 1)[1])],
    "var_mean": [S(R(2, 3), call=lambda torch, x: torch.var_mean(x, 0)[0])],
    # tensor API breadth: linear algebra
    "det": [S(R(3, 3))],
    "inverse": [S(R(3, 3))],
    "matrix_exp": [S(R(3, 3)), S(R(2, 2, 2))],
    "linalg_solve": [S(R(3, 3), R(3, 2), call=lambda torch, a, b: torch.linalg.solve(a, b))],
    "svd": [S(R(3, 2), call=lambda torch, x: x.svd()[1])],
    "matrix_power": [S(R(2, 2), args=(3,))],
    # tensor API breadth: hooks, scatter and indexing
    "register_post_accumulate_grad_hook": [S(R(2, 3), call=_post_accumulate_hook)],
    "is_inference": [S(R(2, 3))],
    "scatter": [S(R(2, 3), I([[0], [2]]), R(2, 1), call=lambda torch, x, i, v: x.scatter(1, i, v)),
                S(R(2, 3), I([[0], [2]]), call=lambda torch, x, i: x.scatter(1, i, 0.5))],
    "scatter_add": [S(R(2, 3), I([[0, 0], [2, 1]]), R(2, 2), call=lambda torch, x, i, v: x.scatter_add(1, i, v))],
    "scatter_reduce": [S(R(2, 3), I([[0, 0], [2, 1]]), R(2, 2),
                         call=lambda torch, x, i, v: x.scatter_reduce(1, i, v, "sum"))],
    "index_add": [S(R(2, 3), I([0, 2]), R(2, 2), call=lambda torch, x, i, v: x.index_add(1, i, v))],
    "index_fill": [S(R(2, 3), I([0, 2]), call=lambda torch, x, i: x.index_fill(1, i, 0.5))],
    "index_copy": [S(R(2, 3), I([0, 2]), R(2, 2), call=lambda torch, x, i, v: x.index_copy(1, i, v))],
    "take": [S(R(2, 3), I([0, 4, 4]))],
    "take_along_dim": [S(R(2, 3), I([[0], [2]]), call=lambda torch, x, i: x.take_along_dim(i, 1))],
    "masked_select": [S(R(2, 3), B([[True, False, True], [False, True, True]]))],
    "nonzero": [S(I([[0, 2, 0], [1, 1, 0]]))],
    "argwhere": [S(I([[0, 2, 0], [1, 1, 0]]))],
    "unique": [S(I([3, 1, 3, 2, 1]))],
    "unique_consecutive": [S(I([3, 3, 1, 1, 2, 3]))],
    "bincount": [S(I([0, 1, 1, 3]))],
    "bucketize": [S(R(2, 3), C(3), call=lambda torch, x, b: torch.bucketize(x, b.sort()[0]))],
    "searchsorted": [S(C(4), R(3), call=lambda torch, s, x: torch.searchsorted(s.sort()[0], x))],
    "histc": [S(R(6), args=(4, -2, 2))],
    "histogram": [S(C(6), call=lambda torch, x: torch.histogram(x, 4)[0]),
                  S(C(2, 3), call=lambda torch, x: x.histogram(3, range=(-1.0, 1.0), density=True)[0]),
                  S(R(6), call=lambda torch, x: torch.histogram(x, 5)[1])],
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
    "squeeze": [S(R(2, 1, 3)), S(R(2, 1, 3), args=(1,)),
                S(R(2, 1, 3), call=lambda torch, x: (x * 1).squeeze_()),
                S(R(2, 1, 3), call=lambda torch, x: (x * 1).squeeze_(1)),
                S(R(1, 2, 1), call=lambda torch, x: (x * 1).squeeze_((0, 2)))],
    "unsqueeze": [S(R(2, 3), args=(0,)), S(R(2, 3), call=lambda torch, x: (x * 1).unsqueeze_(-1))],
    "t": [S(R(2, 3)), S(R(2, 3), call=lambda torch, x: (x * 1).t_())],
    "T": [S(R(2, 3), call=lambda torch, x: x.T)],
    "mT": [S(R(2, 2, 3), call=lambda torch, x: x.mT)],
    "transpose": [S(R(2, 3), args=(0, 1)), S(R(2, 1, 3), call=lambda torch, x: (x * 1).transpose_(0, 2)),
                  S(R(2, 3), call=lambda torch, x: (x * 1).swapaxes_(1, 0))],
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
    "adaptive_avg_pool2d": [S(R(1, 1, 4, 4), call=_fn("adaptive_avg_pool2d", 2))],
    "adaptive_avg_pool1d": [S(R(1, 2, 6), call=_fn("adaptive_avg_pool1d", 3))],
}

def _seeded(fn):
    """fn(torch, *tensors) after torch.manual_seed(0): PyTorch's own draws, every call."""
    def call(torch, *tensors):
        torch.manual_seed(0)
        return fn(torch, *tensors)
    return call


def _sdpa(**kwargs):
    def call(torch, q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v, **kwargs)
    return call


# issue 14: attention, dropout variants, pixel shuffle, 1-d and adaptive pooling, group and
# instance norm, prelu, rrelu (gradrepl/engine/ops/nn_extra.py)
SAMPLES.update({
    "safe_softmax": "at::_safe_softmax has no public name: checked through scaled_dot_product_attention's "
                    "3-d samples (SafeSoftmaxBackward0)",
    "scaled_dot_product_attention": [
        S(R(2, 3, 4), R(2, 5, 4), R(2, 5, 4), call=_sdpa()),
        S(R(2, 3, 4), R(2, 3, 4), R(2, 3, 4), call=_sdpa(is_causal=True, scale=0.4)),
        S(R(1, 3, 2), R(1, 4, 2), R(1, 4, 2), C(3, 4), call=lambda torch, q, k, v, m:
          torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=m)),
        S(R(1, 2, 3, 4), R(1, 2, 5, 4), R(1, 2, 5, 4), call=_sdpa()),
        S(R(1, 2, 3, 4), R(1, 2, 3, 4), R(1, 2, 3, 4), call=_sdpa(is_causal=True))],
    "feature_dropout": [S(R(2, 3, 2), call=_seeded(lambda torch, x: torch.feature_dropout(x, 0.4, True)))],
    "alpha_dropout": [S(R(3, 4), call=_seeded(lambda torch, x: torch.alpha_dropout(x, 0.3, True))),
                      S(R(3, 4), call=lambda torch, x: torch.alpha_dropout(x, 0.3, False))],
    "feature_alpha_dropout": [S(R(2, 3, 2), call=_seeded(lambda torch, x: torch.feature_alpha_dropout(x, 0.5, True)))],
    "torch_dropout": [S(R(3, 4), call=_seeded(lambda torch, x: torch.dropout(x, 0.25, True)))],
    **{name: [S(R(2, 3, 2), call=_seeded(lambda torch, x, name=name: getattr(torch, name)(x * 1, 0.5, True)))]
       for name in ("dropout_", "feature_dropout_", "alpha_dropout_", "feature_alpha_dropout_")},
    "pixel_shuffle": [S(R(1, 8, 2, 3), call=_fn("pixel_shuffle", 2)), S(R(4, 1, 2), call=lambda torch, x:
                      torch.pixel_shuffle(x, 2))],
    "pixel_unshuffle": [S(R(1, 2, 4, 6), call=_fn("pixel_unshuffle", 2))],
    "max_pool1d": [S(R(2, 3, 7), call=_fn("max_pool1d", 3, 2)), S(R(3, 6), call=lambda torch, x:
                   torch.max_pool1d(x, 2, 1, 1))],
    "max_pool1d_with_indices": [S(R(1, 2, 6), call=lambda torch, x: torch.nn.functional.max_pool1d_with_indices(
        x, 2)[0])],
    "max_pool2d_with_indices": [S(R(1, 2, 4, 4), call=lambda torch, x:
                                  torch.nn.functional.max_pool2d_with_indices(x, 2, 1)[0])],
    "avg_pool1d": [S(R(2, 3, 7), call=_fn("avg_pool1d", 3, 2, 1)), S(R(3, 5), call=lambda torch, x:
                   torch.avg_pool1d(x, 2, ceil_mode=True, count_include_pad=False))],
    "adaptive_max_pool2d": [S(R(1, 2, 5, 4), call=_fn("adaptive_max_pool2d", (2, 3)))],
    "adaptive_max_pool2d_with_indices": [S(R(2, 3, 3), call=lambda torch, x:
                                           torch.nn.functional.adaptive_max_pool2d_with_indices(x, 2)[0])],
    "adaptive_max_pool1d": [S(R(2, 3, 7), call=_fn("adaptive_max_pool1d", 3)),
                            S(R(2, 5), call=lambda torch, x: torch.adaptive_max_pool1d(x, 2)[0])],
    "adaptive_max_pool1d_with_indices": [S(R(1, 2, 5), call=lambda torch, x:
                                           torch.nn.functional.adaptive_max_pool1d_with_indices(x, 2)[0])],
    "group_norm": [S(R(2, 4, 3), R(4), R(4), call=lambda torch, x, w, b: torch.nn.functional.group_norm(x, 2, w, b)),
                   S(R(3, 2, 2, 2), call=lambda torch, x: torch.group_norm(x, 1))],
    "instance_norm": [S(R(2, 3, 4), call=_fn("instance_norm")),
                      S(R(2, 2, 2, 3), R(2), R(2), call=lambda torch, x, w, b:
                        torch.instance_norm(x, w, b, None, None, True, 0.1, 1e-5, False))],
    "torch_embedding": [S(R(5, 3), I([[0, 2], [4, 2]]), call=lambda torch, w, i: torch.embedding(w, i))],
    "cosine_similarity": [S(R(3, 4), R(3, 4), call=_fn("cosine_similarity")),
                          S(R(3, 4), R(4), call=lambda torch, a, b: torch.cosine_similarity(a, b, -1))],
    "prelu": [S(R(2, 3, 2), P(3), call=_fn("prelu")), S(R(2, 3), C(1), call=lambda torch, x, w: x.prelu(w)),
              S(R(4), P(1), call=lambda torch, x, w: torch.prelu(x, w))],
    "upsample": "F.interpolate's kernels: checked through interpolate's samples",
    "upsample_backward": "a backward kernel, run under create_graph: checked through interpolate's samples",
    "interpolate": [S(R(1, 2, 3), call=_fn("interpolate", scale_factor=2)),
                    S(R(1, 1, 2, 3), call=_fn("interpolate", size=(3, 5))),
                    S(R(1, 2, 4), call=_fn("interpolate", size=7, mode="nearest-exact")),
                    S(R(2, 2, 4), call=_fn("interpolate", size=6, mode="linear")),
                    S(R(1, 2, 3, 3), call=_fn("interpolate", scale_factor=1.5, mode="bilinear")),
                    S(R(1, 1, 3, 4), call=_fn("interpolate", size=(4, 6), mode="bilinear", align_corners=True)),
                    S(R(1, 1, 2, 2, 3), call=_fn("interpolate", scale_factor=2, mode="trilinear")),
                    S(R(1, 2, 4, 4), call=_fn("interpolate", scale_factor=0.5, mode="area"))],
    "kl_div": [S(R(2, 3), Pr(2, 3, grad=False), call=lambda torch, x, t: torch.kl_div(x, t)),
               S(R(2, 3), R(2, 3), call=lambda torch, x, t: torch.kl_div(x, t, 0, log_target=True))],
    "poisson_nll_loss": [S(R(2, 3), Pr(2, 3, grad=False), call=_fn("poisson_nll_loss")),
                         S(P(2, 3), P(2, 3, ), call=lambda torch, x, t: torch.poisson_nll_loss(x, t * 2, False, True,
                                                                                              1e-8, 0))],
    "cosine_embedding_loss": [S(R(3, 4), R(3, 4), I([1, -1, 1]), call=_fn("cosine_embedding_loss", margin=0.1)),
                              S(R(4), R(4), I(-1), call=lambda torch, a, b, t: torch.cosine_embedding_loss(
                                  a, b, t, -0.9, 0))],
    "triplet_margin_loss": [S(R(3, 4), R(3, 4), R(3, 4), call=_fn("triplet_margin_loss")),
                            S(R(3, 4), R(3, 4), R(3, 4), call=_fn("triplet_margin_loss", p=1.5, swap=True,
                                                                  reduction="none"))],
    "soft_margin_loss": [S(R(2, 3), C(2, 3), call=_fn("soft_margin_loss")),
                         S(R(2, 3), C(2, 3), call=_fn("soft_margin_loss", reduction="none"))],
    "multi_margin_loss": [S(R(3, 4), I([1, 0, 3]), call=_fn("multi_margin_loss")),
                          S(R(3, 4), I([2, 2, 0]), C(4, kind="positive"), call=lambda torch, x, t, w:
                            torch.nn.functional.multi_margin_loss(x, t, p=2, margin=0.5, weight=w, reduction="none"))],
    "multilabel_margin_loss": [S(R(3, 4), I([[1, 0, -1, 0], [3, -1, 0, 0], [0, 1, 2, 3]]),
                                 call=_fn("multilabel_margin_loss")),
                               S(R(2, 3), I([[2, -1, 0], [0, 1, -1]]), call=_fn("multilabel_margin_loss",
                                                                               reduction="sum"))],
    "rms_norm": [S(R(2, 3), call=lambda torch, x: torch.nn.functional.rms_norm(x, (3,))),
                 S(R(2, 3), R(3), call=lambda torch, x, w: torch.rms_norm(x, [3], w, 1e-3))],
    "bilinear": [S(R(3, 4), R(3, 2), R(5, 4, 2), R(5), call=_fn("bilinear")),
                 S(R(2, 3, 2), R(2, 3, 2), R(1, 2, 2), call=lambda torch, a, b, w: torch.bilinear(a, b, w, None))],
    "pad_nonconstant": [S(R(1, 2, 5), call=_fn("pad", (2, 1), mode="reflect")),
                        S(R(1, 3, 4), call=_fn("pad", (1, 0, 2, 2), mode="reflect")),
                        S(R(2, 4), call=_fn("pad", (1, 3), mode="replicate")),
                        S(R(1, 1, 3, 3), call=_fn("pad", (2, 0, 1, 1), mode="replicate")),
                        S(R(1, 2, 4), call=_fn("pad", (1, 2), mode="circular")),
                        S(R(1, 1, 2, 2, 3), call=_fn("pad", (1, 1, 0, 1, 1, 0), mode="reflect"))],
    "conv3d": [S(R(1, 2, 3, 3, 3), R(2, 2, 2, 2, 2), R(2), call=_fn("conv3d", padding=1)),
               S(R(2, 3, 2, 3), R(1, 2, 1, 2, 2), call=_fn("conv3d", stride=(1, 2, 1)))],
    "conv_transpose1d": [S(R(2, 3, 4), R(3, 2, 3), R(2), call=_fn("conv_transpose1d", stride=2, padding=1,
                                                               output_padding=1)),
                         S(R(4, 3), R(4, 1, 2), call=_fn("conv_transpose1d", groups=2, dilation=2))],
    "conv_transpose2d": [S(R(1, 2, 3, 3), R(2, 3, 2, 2), R(3), call=_fn("conv_transpose2d", stride=2)),
                         S(R(1, 4, 2, 3), R(4, 1, 2, 2), call=_fn("conv_transpose2d", padding=1, groups=2))],
    "im2col": "F.unfold's kernel: checked through functional_unfold's samples",
    "col2im": "F.fold's kernel: checked through fold's samples",
    "functional_unfold": [S(R(2, 3, 4, 5), call=_fn("unfold", (2, 3), padding=1, stride=(2, 1))),
                          S(R(2, 3, 3), call=_fn("unfold", 2, dilation=(1, 2)))],
    "fold": [S(R(1, 8, 6), call=_fn("fold", (3, 4), 2)),
             S(R(12, 6), call=_fn("fold", (4, 5), (2, 3), padding=1, stride=(2, 1)))],
    "select_scatter": [S(R(3, 4), R(4), call=lambda torch, x, s: torch.select_scatter(x, s, 0, 1)),
                       S(R(3, 4), R(3), call=lambda torch, x, s: x.select_scatter(s, -1, -2))],
    "slice_scatter": [S(R(3, 4), R(3, 2), call=lambda torch, x, s: torch.slice_scatter(x, s, 1, 0, 4, 2)),
                      S(R(4, 2), R(2, 2), call=lambda torch, x, s: x.slice_scatter(s, start=1, end=3))],
    "as_strided": [S(R(12), call=lambda torch, x: torch.as_strided(x, (3, 3), (2, 1))),
                   S(R(3, 4), call=lambda torch, x: x.as_strided((2, 2), (1, 4), 1)),
                   S(R(3, 4), call=lambda torch, x: x[1].as_strided((2, 3), (1, 1)))],
    "as_strided_": "in place: a leaf that requires grad refuses it; tests/data/engine_cases/as_strided.py",
    "as_strided_scatter": [S(R(6), R(2, 2), call=lambda torch, x, s: torch.as_strided_scatter(x, s, (2, 2), (1, 2), 1)),
                           S(R(4), R(2, 2), call=lambda torch, x, s: x.as_strided_scatter(s, (2, 2), (1, 2)))],
    "diagonal_scatter": [S(R(3, 4), R(3), call=lambda torch, x, s: torch.diagonal_scatter(x, s, 1)),
                         S(R(3, 3), R(2), call=lambda torch, x, s: x.diagonal_scatter(s, -1))],
    "ldexp": [S(R(2, 3), I([1, -2, 3]), call=lambda torch, x, e: torch.ldexp(x, e)),
              S(R(2, 3), R(3), call=lambda torch, x, e: x.ldexp(e))],
    "frexp": [S(R(2, 3), call=lambda torch, x: torch.frexp(x)[0]), S(R(2, 3), call=lambda torch, x: x.frexp()[1])],
    "angle": [S(R(2, 3)), S(I([-1, 0, 2]), call=lambda torch, x: torch.angle(x))],
    "range": [S(call=lambda torch: torch.range(1, 4)), S(call=lambda torch: torch.range(0, 1, 0.25,
                                                                                       dtype=torch.float64))],
    "new": [S(R(2, 3), call=lambda torch, x: x.new([1, 2])), S(R(2, 3), call=lambda torch, x: x.new(2, 0))],
    "multinomial": [S(Pr(3, grad=False), call=_seeded(lambda torch, p: p.multinomial(4, True)))],
    "masked_scatter": [S(R(2, 3), B([[True, False, True], [False, True, True]]), R(5),
                         call=lambda torch, x, m, s: x.masked_scatter(m, s)),
                       S(R(2, 3), B([False, True, True]), R(2, 3), call=lambda torch, x, m, s: torch.masked_scatter(
                           x, m, s))],
    "put": [S(R(2, 3), I([1, 4]), R(2), call=lambda torch, x, i, s: x.put(i, s)),
            S(R(2, 3), I([0, 0, -1]), R(3), call=lambda torch, x, i, s: torch.put(x, i, s, accumulate=True))],
    "index_put": [S(R(3, 4), I([0, 2]), I([1, 3]), R(2), call=lambda torch, x, i, j, v: x.index_put((i, j), v)),
                  S(R(3, 4), I([0, 0]), R(4), call=lambda torch, x, i, v: torch.index_put(x, (i,), v, True))],
    "special_entr": [S(P(2, 3), call=lambda torch, x: torch.special.entr(x))],
    "special_erfcx": [S(R(2, 3), call=lambda torch, x: torch.special.erfcx(x))],
    "special_log_ndtr": [S(R(2, 3), call=lambda torch, x: torch.special.log_ndtr(x))],
    "special_ndtri": [S(Pr(2, 3), call=lambda torch, x: torch.special.ndtri(x))],
    "special_i0e": [S(R(2, 3), call=lambda torch, x: torch.special.i0e(x))],
    "special_i1e": [S(R(2, 3), call=lambda torch, x: torch.special.i1e(x))],
    "special_xlog1py": [S(R(2, 3), P(2, 3), call=lambda torch, x, y: torch.special.xlog1py(x, y)),
                        S(R(2, 3), P(3), call=lambda torch, x, y: torch.special.xlog1py(x, y))],
    "rrelu": [S(R(2, 3), call=_fn("rrelu")), S(R(2, 3), call=_seeded(lambda torch, x:
              torch.nn.functional.rrelu(x, 0.1, 0.5, training=True)))],
})

# --- api2 ---
def _special(name, *args):
    return lambda torch, *t: getattr(torch.special, name)(*t, *args)


_POLYNOMIALS = ("chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
                "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
                "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
                "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p")
SAMPLES.update({
    **{f"special_{name}": [S(U(2, 3), call=_special(name, 3)), S(U(2, 5), call=_special(name, 12)),
                           S(R(3), I([0, 1, 5]), call=_special(name)),
                           S(I([[1, -1, 0], [2, 3, 0]]), call=lambda torch, n, name=name: getattr(torch.special, name)(
                               0.5, n)),
                           S(Arg((4,), values=[1.0, -1.0, 0.0, 0.25], grad=False), call=_special(name, 9))]
       for name in _POLYNOMIALS},
    **{f"special_{name}": [S(R(2, 3), call=_special(name)), S(F32(2, 3), call=_special(name)),
                           S(Arg((5,), values=[0.0, 1e-3, 7.5, 30.0, 250.0], grad=False), call=_special(name))]
       for name in ("airy_ai", "modified_bessel_i0", "modified_bessel_i1", "spherical_bessel_j0")},
    **{f"special_{name}": [S(P(2, 3), call=_special(name)), S(F32(2, 3), call=lambda torch, x, name=name: getattr(
                               torch.special, name)(x.abs())),
                           S(Arg((5,), values=[0.0, 1e-3, 7.5, 30.0, -1.0], grad=False), call=_special(name))]
       for name in ("modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0",
                    "scaled_modified_bessel_k1")},
    **{f"special_{name}": [S(R(2, 3), call=_special(name)), S(F32(2, 3), call=_special(name)),
                           S(Arg((5,), values=[0.0, 1e-3, 7.5, 30.0, 250.0], grad=False), call=_special(name))]
       for name in ("bessel_j0", "bessel_j1")},
    **{f"special_{name}": [S(P(2, 3), call=_special(name)), S(F32(2, 3), call=lambda torch, x, name=name: getattr(
                               torch.special, name)(x.abs())),
                           S(Arg((5,), values=[0.0, 1e-3, 7.5, 30.0, -1.0], grad=False), call=_special(name))]
       for name in ("bessel_y0", "bessel_y1")},
    **{name: [S(C(2, 3, kind="positive"), P(2, 3)), S(C(2, 3, kind="positive"), P(3)),
              S(C(3, kind="positive"), P(2, 1), call=lambda torch, a, x, special=special: getattr(torch.special, special)(a, x)),
              S(Arg((7,), values=[0.5, 20.0, 20.0, 3.0, 0.0, 2.0, 1e-3], grad=False),
                Arg((7,), values=[0.3, 10.0, 30.0, 0.0, 1.0, 1e3, 5.0], grad=False))]
       for name, special in (("igamma", "gammainc"), ("igammac", "gammaincc"))},
    "special_zeta": [S(C(2, 3, kind="positive"), P(2, 3), call=lambda torch, x, q: torch.special.zeta(x + 1, q)),
                     S(P(3), call=lambda torch, q: torch.special.zeta(3.0, q)),
                     S(C(3, kind="positive"), P(2, 3), call=lambda torch, x, q: torch.special.zeta(x + 2, q)),
                     S(P(3), call=lambda torch, x: torch.special.zeta(x + 1, 2.0)),
                     S(Arg((6,), values=[2.0, 2.0, 3.0, 0.5, 1.0, 2.0], grad=False),
                       Arg((6,), values=[-1.0, -1.5, -1.5, 1.0, 1.0, 0.0], grad=False),
                       call=lambda torch, x, q: torch.special.zeta(x, q))],
})

def _spd(torch, a):
    """A symmetric positive-definite matrix made from a (differentiable in a)."""
    return a @ a.mT + 3 * torch.eye(a.shape[-1], dtype=a.dtype)


def _well(torch, a):
    """a, made well conditioned (its diagonal moved away from 0)."""
    return a + 4 * torch.eye(a.shape[-1], dtype=a.dtype)


SAMPLES.update({
    "linalg_solve_triangular": [
        S(R(3, 3), R(3, 2), call=lambda torch, a, b: torch.linalg.solve_triangular(_well(torch, a), b, upper=True)),
        S(R(3, 3), R(2, 3), call=lambda torch, a, b: torch.linalg.solve_triangular(_well(torch, a), b, upper=False,
                                                                                    left=False)),
        S(R(2, 3, 3), R(3, 1), call=lambda torch, a, b: torch.linalg.solve_triangular(a, b, upper=False,
                                                                                       unitriangular=True))],
    "linalg_lu_factor_ex": [S(R(3, 3), call=lambda torch, a: torch.linalg.lu_factor(a).LU),
                            S(R(2, 3, 3), call=lambda torch, a: torch.linalg.lu_factor_ex(a)[0])],
    "linalg_lu": [S(R(3, 3), call=lambda torch, a: torch.linalg.lu(a).L),
                  S(R(3, 3), call=lambda torch, a: torch.linalg.lu(a)[2])],
    "linalg_lu_solve": [S(R(3, 3), R(3, 2), call=lambda torch, a, b: torch.linalg.lu_solve(
        *torch.linalg.lu_factor(_well(torch, a)), b))],
    "cholesky": [S(R(3, 3), call=lambda torch, a: torch.cholesky(_spd(torch, a))),
                 S(R(3, 3), call=lambda torch, a: _spd(torch, a).cholesky(upper=True))],
    "cholesky_solve": [S(R(3, 2), R(3, 3), call=lambda torch, b, a: torch.cholesky_solve(
                           b, torch.linalg.cholesky(_spd(torch, a)))),
                       S(R(3, 2), R(3, 3), call=lambda torch, b, a: b.cholesky_solve(
                           torch.linalg.cholesky(_spd(torch, a)).mT, upper=True))],
    "cholesky_inverse": [S(R(3, 3), call=lambda torch, a: torch.cholesky_inverse(torch.linalg.cholesky(_spd(torch, a)))),
                         S(R(3, 3), call=lambda torch, a: torch.linalg.cholesky(_spd(torch, a)).mT.cholesky_inverse(
                             upper=True))],
    "triangular_solve": [S(R(3, 2), R(3, 3), call=lambda torch, b, a: torch.triangular_solve(b, _well(torch, a))[0]),
                         S(R(3, 2), R(3, 3), call=lambda torch, b, a: b.triangular_solve(
                             _well(torch, a), upper=False, transpose=True).solution),
                         S(R(3, 2), R(3, 3), call=lambda torch, b, a: torch.triangular_solve(
                             b, a, unitriangular=True).cloned_coefficient)],
    "lu": [S(R(3, 3), call=lambda torch, a: torch.lu(a)[0]),
           S(R(2, 3, 3), call=lambda torch, a: a.lu()[0])],
    "lu_unpack": [S(R(3, 3), call=lambda torch, a: torch.lu_unpack(*torch.linalg.lu_factor(a)).L),
                  S(R(3, 3), call=lambda torch, a: torch.lu_unpack(*torch.linalg.lu_factor(a))[2])],
    "lu_solve": [S(R(3, 2), R(3, 3), call=lambda torch, b, a: torch.lu_solve(b, *torch.linalg.lu_factor(
        _well(torch, a)))),
                 S(R(3, 2), R(3, 3), call=lambda torch, b, a: b.lu_solve(*torch.linalg.lu_factor(_well(torch, a))))],
})

_THETA = [[[0.9, 0.2, 0.1], [-0.1, 1.1, 0.05]], [[1.2, -0.3, 0.0], [0.25, 0.8, -0.2]]]
SAMPLES.update({
    "pdist": [S(R(4, 3), call=lambda torch, x: torch.nn.functional.pdist(x)),
              S(R(4, 3), call=lambda torch, x: torch.nn.functional.pdist(x, p=1)),
              S(R(3, 2), call=lambda torch, x: torch.pdist(x, 3)),
              S(R(4, 3), call=lambda torch, x: torch.nn.functional.pdist(x, 0.5))],
    "conv_transpose3d": [S(R(1, 2, 2, 3, 2), R(2, 1, 2, 2, 2), R(1), call=lambda torch, x, w, b:
                           torch.nn.functional.conv_transpose3d(x, w, b, stride=2, padding=1, output_padding=1))],
    "affine_grid": [S(Arg((2, 2, 3), values=_THETA), call=lambda torch, t: torch.nn.functional.affine_grid(
                        t, (2, 3, 4, 5), align_corners=False)),
                    S(Arg((2, 2, 3), values=_THETA), call=lambda torch, t: torch.nn.functional.affine_grid(
                        t, (2, 1, 3, 3), align_corners=True))],
    "grid_sample": [S(R(2, 3, 4, 5), Arg((2, 2, 3), values=_THETA, grad=False),
                      call=lambda torch, x, t: torch.nn.functional.grid_sample(
                          x, torch.nn.functional.affine_grid(t, (2, 3, 3, 4), align_corners=False),
                          align_corners=False)),
                    S(R(1, 2, 4, 4), U(1, 3, 3, 2), call=lambda torch, x, g: torch.nn.functional.grid_sample(
                        x, g * 1.4, padding_mode="border", align_corners=True)),
                    S(R(1, 2, 4, 4), U(1, 3, 3, 2), call=lambda torch, x, g: torch.nn.functional.grid_sample(
                        x, g, mode="nearest", align_corners=False))],
})


# --- api1 ---
SAMPLES.update({
    "rsub": [S(R(2, 3), R(2, 3), call=lambda torch, x, y: torch.rsub(x, y)),
             S(R(2, 3), R(3), call=lambda torch, x, y: torch.rsub(x, y, alpha=0.5)),
             S(R(2, 3), call=lambda torch, x: torch.rsub(x, 1.5)),
             S(R(2, 3), call=lambda torch, x: torch.rsub(x, 2, alpha=3)),
             S(F32(2, 3), call=lambda torch, x: torch.rsub(x, 0.1, alpha=0.3)),
             S(I([1, 2, 3]), call=lambda torch, x: torch.rsub(x, 5))],
    "fill": [S(R(2, 3), call=lambda torch, x: torch.fill(x, 1.5)),
             S(R(2, 3), R(), call=lambda torch, x, v: torch.fill(x, v)),
             S(I([1, 2]), call=lambda torch, x: torch.fill(x, 2.7))],
    "hamming_window": [S(call=lambda torch: torch.hamming_window(7)),
                       S(call=lambda torch: torch.hamming_window(6, False, 0.6, 0.4, dtype=torch.float64)),
                       S(call=lambda torch: torch.hamming_window(1))],
    "hann_window": [S(call=lambda torch: torch.hann_window(9)), S(call=lambda torch: torch.hann_window(64)),
                    S(call=lambda torch: torch.hann_window(10, periodic=False, dtype=torch.float64)),
                    S(call=lambda torch: torch.hann_window(0))],
    "blackman_window": [S(call=lambda torch: torch.blackman_window(12)),
                        S(call=lambda torch: torch.blackman_window(5, False, dtype=torch.float64))],
    "bartlett_window": [S(call=lambda torch: torch.bartlett_window(7)),
                        S(call=lambda torch: torch.bartlett_window(8, False))],
    "kaiser_window": [S(call=lambda torch: torch.kaiser_window(8)),
                      S(call=lambda torch: torch.kaiser_window(6, False, 5.0, dtype=torch.float64))],
    "nextafter": [S(R(2, 3), R(2, 3)), S(F32(2, 3), C(3), call=lambda torch, x, y: torch.nextafter(x, y))],
    "unsafe_split": [S(R(4, 3), call=lambda torch, x: torch.unsafe_split(x, 3)[1]),
                     S(R(2, 5), call=lambda torch, x: x.unsafe_split([2, 3], 1)[0])],
    "unsafe_split_with_sizes": [S(R(5, 2), call=lambda torch, x: torch.unsafe_split_with_sizes(x, [1, 4])[1])],
    "unsafe_chunk": [S(R(5, 2), call=lambda torch, x: torch.unsafe_chunk(x, 2)[0]),
                     S(R(2, 6), call=lambda torch, x: x.unsafe_chunk(3, -1)[2])],
    "bernoulli": [S(Pr(3, 4, grad=False), call=_seeded(lambda torch, p: p.bernoulli())),
                  S(F32(2, 3), call=_seeded(lambda torch, x: x.bernoulli(0.4))),
                  S(Pr(5), call=_seeded(lambda torch, p: p.bernoulli()))],
    "mvlgamma": [S(P(2, 3), call=lambda torch, x: (x + 1).mvlgamma(3)),
                 S(P(2, 3), call=lambda torch, x: torch.mvlgamma(x, 1))],
    "polygamma": [S(P(2, 3), args=(1,)), S(P(2, 3), args=(2,)), S(P(4), args=(0,))],
    "qr": [S(R(3, 3), call=lambda torch, x: x.detach().qr()[1].abs())],
    "logdet": [S(C(3, 3), call=lambda torch, x: (x @ x.mT + torch.eye(3, dtype=x.dtype)).logdet())],
    "slogdet": [S(C(3, 3), call=lambda torch, x: x.slogdet()[1])],
    "pinverse": [S(C(3, 2), call=lambda torch, x: x.pinverse())],
    "solve": [S(R(2, 2), R(2, 2), call=lambda torch, a, b: torch.solve(a, b))],
    "lstsq": [S(R(2, 2), R(2, 2), call=lambda torch, a, b: a.lstsq(b))],
    "eig": [S(R(2, 2), call=lambda torch, a: torch.eig(a))],
    "symeig": [S(R(2, 2), call=lambda torch, a: a.symeig())],
    "matrix_rank": [S(R(2, 2), call=lambda torch, a: torch.matrix_rank(a))],
    "output_nr": [S(R(4), call=lambda torch, x: [x.output_nr, x.split(2)[1].output_nr, (x * 2).output_nr])],
    "is_pinned": [S(R(2), call=lambda torch, x: x.is_pinned())],
    "pin_memory": [S(R(2), call=lambda torch, x: x.pin_memory())],
    "is_shared": [S(R(2), call=lambda torch, x: x.is_shared())],
    "share_memory_": [S(R(2), call=lambda torch, x: x.share_memory_() is x)],
    "nonzero_static": [S(I([0, 1, 0, 2]), call=lambda torch, x: torch.nonzero_static(x, size=4)),
                       S(I([[0, 1], [3, 0]]), call=lambda torch, x: x.nonzero_static(size=1, fill_value=-5))],
    "empty_strided": [S(call=lambda torch: list(torch.empty_strided((2, 3), (1, 2)).stride()))],
    "empty_permuted": [S(call=lambda torch: list(torch.empty_permuted((2, 3, 4), (2, 0, 1)).stride()))],
    "new_empty_strided": [S(R(2), call=lambda torch, x: list(x.new_empty_strided((2, 2), (1, 2)).stride()))],
    "margin_ranking_loss": [S(R(4), R(4), C(4), call=lambda torch, a, b, t: torch.margin_ranking_loss(
        a, b, t.sign(), 0.1, 1)), S(R(4), R(4), C(4), call=lambda torch, a, b, t: torch.margin_ranking_loss(
            a, b, t.sign(), 0.0, 0))],
    "hinge_embedding_loss": [S(R(2, 3), C(2, 3), call=lambda torch, x, t: torch.hinge_embedding_loss(
        x, t.sign(), 1.0, 2))],
    "torch_binary_cross_entropy_with_logits": [S(R(2, 3), Pr(2, 3, grad=False), call=lambda torch, x, t:
                                                 torch.binary_cross_entropy_with_logits(x, t, None, None, 1))],
    "constant_pad_nd": [S(R(2, 3), call=lambda torch, x: torch.constant_pad_nd(x, [1, 2], 0.5)),
                        S(R(2, 3), call=lambda torch, x: torch.constant_pad_nd(x, (0, 1, 1, 0)))],
    "rnn_tanh_cell": [S(R(2, 3), R(2, 4), U(4, 3), U(4, 4), R(4), R(4), call=lambda torch, *t: torch.rnn_tanh_cell(*t))],
    "rnn_relu_cell": [S(R(2, 3), R(2, 4), U(4, 3), U(4, 4), call=lambda torch, *t: torch.rnn_relu_cell(*t))],
    "gru_cell": [S(R(2, 3), R(2, 2), U(6, 3), U(6, 2), R(6), R(6), call=lambda torch, *t: torch.gru_cell(*t))],
    "lstm_cell": [S(R(2, 3), R(2, 2), R(2, 2), U(8, 3), U(8, 2), R(8), R(8), call=lambda torch, x, h, c, *w:
                    torch.lstm_cell(x, (h, c), *w)[1]),
                  S(R(2, 3), R(2, 2), R(2, 2), U(8, 3), U(8, 2), call=lambda torch, x, h, c, *w:
                    torch.lstm_cell(x, (h, c), *w)[0])],
    "renorm": [S(R(3, 4), args=(2, 0, 1.5)), S(R(2, 3, 2), args=(1, 1, 2.0)), S(R(3, 2), args=(3, -1, 0.5)),
               S(R(3, 3), call=lambda torch, x: torch.renorm(x * 0.1, 2, 0, 5.0))],
    "poisson": [S(P(3, 4), call=_seeded(lambda torch, x: torch.poisson(x * 6))),
                S(C(2, 5, kind="positive"), call=_seeded(lambda torch, x: torch.poisson(x * 20).float()))],
    "binomial": [S(P(3, 4), P(3, 4), call=_seeded(lambda torch, c, p: torch.binomial(c * 40, p * 0.4))),
                 S(C(2, 5, kind="positive"), call=_seeded(lambda torch, c: torch.binomial(
                     c.detach() * 9, torch.tensor([0.05, 0.3, 0.5, 0.7, 0.999], dtype=c.dtype))))],
    "geometric_": [S(C(2, 3), call=_seeded(lambda torch, x: x.clone().geometric_(0.3))),
                   S(F32(4), call=_seeded(lambda torch, x: x.detach().clone().geometric_(0.8)))],
    "dim_order": [S(R(2, 3, 4), call=lambda torch, x: list(x.permute(2, 0, 1).dim_order())),
                  S(R(2, 1, 3), call=lambda torch, x: list(x.dim_order()))],
    "is_set_to": [S(R(3), call=lambda torch, x: [x.is_set_to(x), x[:2].is_set_to(x), x.is_set_to(x.clone())])],
    "is_maia": [S(R(2), call=lambda torch, x: x.is_maia)],
    "grad_dtype": [S(R(2), call=lambda torch, x: str(x.grad_dtype))],
    "gradient": [S(R(5), call=lambda torch, x: torch.gradient(x)[0]),
                 S(R(3, 4), call=lambda torch, x: torch.gradient(x, spacing=[2.0, 0.5])[1]),
                 S(R(3, 4), call=lambda torch, x: torch.gradient(x, dim=1, edge_order=2)[0]),
                 S(R(5), call=lambda torch, x: torch.gradient(x, spacing=(torch.tensor(
                     [0., 1., 3., 4., 7.], dtype=x.dtype),), edge_order=2)[0])],
    "torch_batch_norm": [S(R(4, 3), R(3), R(3), call=lambda torch, x, w, b: torch.batch_norm(
        x, w, b, torch.zeros(3, dtype=x.dtype), torch.ones(3, dtype=x.dtype), True, 0.1, 1e-5, False)),
                         S(R(2, 3, 2), call=lambda torch, x: torch.batch_norm(
        x, None, None, torch.zeros(3, dtype=x.dtype), torch.ones(3, dtype=x.dtype), False, 0.1, 1e-5, False))],
    "frobenius_norm": [S(R(2, 3), call=lambda torch, x: torch.frobenius_norm(x, (0, 1))),
                       S(R(2, 3, 2), call=lambda torch, x: torch.frobenius_norm(x, [2, 0], True))],
})

# PyTorch's backward kernels (aten::tanh_backward, ...): no torch.* name; they run under
# create_graph=True, checked through their forward op's samples (the gradient's grad_fn and
# next_functions, its values and the second derivatives).
BACKWARD_KERNEL = "a backward kernel, run under create_graph: checked through its forward op's samples"
SAMPLES.update({name: BACKWARD_KERNEL for name in (
    "tanh_backward", "sigmoid_backward", "threshold_backward", "leaky_relu_backward", "gelu_backward",
    "elu_backward", "softplus_backward", "hardtanh_backward", "hardswish_backward", "log_sigmoid_backward",
    "softmax_backward_data", "log_softmax_backward_data", "mse_loss_backward", "nll_loss_backward",
    "binary_cross_entropy_backward", "smooth_l1_loss_backward", "huber_loss_backward",
    "max_pool2d_with_indices_backward", "avg_pool2d_backward", "embedding_dense_backward",
    "convolution_backward", "unfold_backward", "adaptive_avg_pool2d_backward")})
# (native_layer_norm_backward / native_batch_norm_backward are recorded by nn.py's _norm_backward_op: no op)

SAMPLES["special_i1"] = "i0's derivative under create_graph (no torch.* name yet): checked through i0's samples"

# Known gaps (by op, or by sample id `op:k`), each with its reason. The sweep marks them
# xfail(strict=True): once fixed, the test fails until the entry is removed here.
GAPS = {
    "create_graph": {
        "pdist": "_pdist_backward is not an op of its own yet: under create_graph its result is a constant",
        "grid_sample": "grid_sampler_2d_backward is not an op of its own yet: under create_graph its results are constants",
        "linalg_lu_solve": "the backward's coefficients are constants under create_graph (no second derivative yet)",
        "triangular_solve": "the backward's results are constants under create_graph (no second derivative yet)",
        "lu_solve": "linalg_lu_solve's backward: its coefficients are constants under create_graph",
        "cholesky_solve": "the backward's results are constants under create_graph (no second derivative yet)",
        **{f"fractional_max_pool{d}d{w}": "the backward is not an op of its own yet: under create_graph its result is "
           "a constant" for d in (2, 3) for w in ("", "_with_indices")},
    },
    "second_order": {
        **{n: "the backward's results are constants under create_graph (no second derivative yet)"
           for n in ("cholesky_solve", "cholesky_inverse", "triangular_solve:0", "triangular_solve:1", "lu_solve")},
        "grid_sample:1": "grid_sampler_2d_backward is not an op of its own yet: under create_graph its results are constants",
        "linalg_lu_solve": "the backward's coefficients are constants under create_graph (no second derivative yet)",
        **{f"special_{n}:0": "the derivative's coefficient is a constant under create_graph (no second derivative "
           "yet)" for n in ("entr", "erfcx", "log_ndtr", "ndtri", "i0e", "i1e")},
    },
    # the create_graph gradient's grad_fn(next_functions) here | PyTorch's: a rule's create_graph path
    # composes other ops than PyTorch's formula in derivatives.yaml (or in another order), or the
    # backward formula is not yet an op of its own
    "cg_graph": {
        "pdist": "_pdist_backward is not an op of its own yet: under create_graph its result is a constant",
        "grid_sample": "grid_sampler_2d_backward is not an op of its own yet: under create_graph its results are constants",
        **{f"linalg_solve_triangular:{k}": "the triangle of -gB X^H is taken with triu/tril after the product; "
           "PyTorch's linalg_solve_triangular_backward orders the ops otherwise" for k in range(3)},
        "linalg_lu_factor_ex:1": "batched: the final P @ X records UnsafeViewBackward0 over other ops than PyTorch's",
        **{f"fractional_max_pool{d}d{w}": "the backward is not an op of its own yet: under create_graph its result is "
           "a constant" for d in (2, 3) for w in ("", "_with_indices")},
        "ctc_loss": "ctc_loss_backward is not an op of its own yet: under create_graph its result is a constant",
        "lu:1": "linalg_lu_factor_ex's batched gap: the final P @ X records other ops than PyTorch's",
        "cholesky_solve": "the backward's results are constants under create_graph",
        "triangular_solve:0": "the backward's results are constants under create_graph",
        "triangular_solve:1": "the backward's results are constants under create_graph",
        "lu_solve": "linalg_lu_solve's backward: its coefficients are constants under create_graph",
        "linalg_lu_solve": "the backward's coefficients are constants under create_graph",
        **{f"rrelu_:{k}": "in place on x * 1, the create_graph gradient reaches MulBackward0's input through "
           "AddBackward0 in gradrepl (PyTorch: RreluWithNoiseBackwardBackward0, the in-place node's own double "
           "backward)" for k in range(2)},
        **{f"scaled_dot_product_attention:{k}": "the 3-d math path's matmuls are one UnsafeViewBackward0 each in "
           "gradrepl (PyTorch: expand/view/bmm/_unsafe_view); the 4-d flash node's gradient is composed "
           "(PyTorch: _scaled_dot_product_flash_attention_for_cpu_backward)" for k in range(5)},
        **{f"{op}:{k}": "composed of unsqueeze / the 2-d pool / squeeze: the squeeze's create_graph rule is a "
           "ViewBackward0 (PyTorch SqueezeBackward1)" for op, k in (("max_pool1d", 0), ("max_pool1d", 1),
           ("max_pool1d_with_indices", 0), ("avg_pool1d", 0), ("avg_pool1d", 1), ("adaptive_max_pool1d", 0),
           ("adaptive_max_pool1d", 1), ("adaptive_max_pool1d_with_indices", 0))},
        "adaptive_max_pool2d:0": "max_pool2d's backward kernel under create_graph (PyTorch "
            "AdaptiveMaxPool2DBackwardBackward0)",
        "adaptive_max_pool2d_with_indices:0": "max_pool2d's backward kernel under create_graph (PyTorch "
            "AdaptiveMaxPool2DBackwardBackward0)",
        "group_norm:0": "composed under create_graph (PyTorch NativeGroupNormBackwardBackward0)",
        "group_norm:1": "composed under create_graph (PyTorch NativeGroupNormBackwardBackward0)",
        "instance_norm:1": "weight.repeat(N)'s create_graph rule differs (PyTorch RepeatBackward0's sum of views)",
        "cosine_similarity:1": "the broadcast x2 (3-d vs 1-d) sums to shape through another node",
        **{f"prelu:{k}": "composed under create_graph (PyTorch _prelu_kernel_backward)" for k in range(3)},
        **{f"rrelu:{k}": "composed under create_graph (PyTorch rrelu_with_noise_backward)" for k in range(2)},
        **{f"pad_nonconstant:{k}": "index_add under create_graph (PyTorch Reflection/ReplicationPadNDBackwardBackward0)"
           for k in (0, 1, 2, 3, 5)},
        "conv3d:1": "unbatched: the unsqueeze/squeeze around the 3-d convolution (PyTorch SqueezeBackward1)",
        **{f"conv_transpose{d}d:{k}": "composed under create_graph (PyTorch convolution_backward with transposed=True: "
           "ConvolutionBackwardBackward0 for the three)" for d in (1, 2) for k in (0, 1)},
        "conv_transpose3d:0": "composed under create_graph (PyTorch convolution_backward with transposed=True: "
                              "ConvolutionBackwardBackward0 for the three)",
        "ldexp:1": "exp2(other) composed in another order under create_graph",
        **{f"special_{n}:0": "the coefficient is a constant under create_graph (PyTorch composes its formula)"
           for n in ("entr", "erfcx", "log_ndtr", "ndtri", "i0e", "i1e")},
        **{f"special_xlog1py:{k}": "composed in another order under create_graph" for k in (0, 1)},
        "poisson_nll_loss:0": "exp(input)'s gradient under create_graph multiplies in the other order",
        **{f"{op}:{k}": f"composed under create_graph (PyTorch {name}BackwardBackward0)" for op, name in (
            ("soft_margin_loss", "SoftMarginLoss"), ("multi_margin_loss", "MultiMarginLoss"),
            ("multilabel_margin_loss", "MultilabelMarginLoss")) for k in range(2)},
        **{f"bilinear:{k}": "composed under create_graph (PyTorch _trilinear's own formulas)" for k in range(2)},
        "adaptive_avg_pool1d": "ViewBackward0(AdaptiveAvgPool2DBackwardBackward0) | PyTorch "
            "SqueezeBackward1(AdaptiveAvgPool2DBackwardBackward0): UnsqueezeBackward0's rule reshapes (no dim kept)",
        "hardshrink": "composed under create_graph (merged from the API-breadth branch); PyTorch HardshrinkBackwardBackward0",
        "softshrink": "composed under create_graph (merged from the API-breadth branch); PyTorch SoftshrinkBackwardBackward0",
        "threshold": "composed under create_graph (merged from the API-breadth branch); PyTorch ThresholdBackwardBackward0",
        "threshold_": "composed under create_graph (merged from the API-breadth branch); PyTorch ThresholdBackwardBackward0",
        "glu": "composed under create_graph (merged from the API-breadth branch); PyTorch GluBackwardBackward0",
        "pairwise_distance": "composed under create_graph (merged from the API-breadth branch); PyTorch NormBackward1's formula",
        "trapezoid:1": "composed under create_graph (merged from the API-breadth branch); PyTorch SliceBackwardBackward0",
        "remainder:0": "None; MulBackward0(None, FloorBackward0) | PyTorch None; MulBackward0(None, DivBackward2)",
        "pow:3": "WhereBackward0(None, None, MulBackward0); WhereBackward0(None, MulBackward1, MulBackward0) | "
            "PyTorch WhereBackward0(None, MulBackward0); MulBackward0(None, WhereBackward0)",
        "pow:4": "MulBackward1(MulBackward0) | PyTorch MulBackward0(None, MulBackward1)",
        "atan2:0": "MulBackward0(MulBackward0, MulBackward1); MulBackward0(MulBackward0, MulBackward1) | "
            "PyTorch MulBackward0(MulBackward0, MaskedFillBackward0); MulBackward0(MulBackward0, MaskedFillBackward0)",
        "atan2:1": "MulBackward0(MulBackward0, MulBackward1); ViewBackward0(SumBackward1) | "
            "PyTorch MulBackward0(MulBackward0, MaskedFillBackward0); ViewBackward0(SumBackward1)",
        "matmul:5": "UnsafeViewBackward0(None, TransposeBackward0); UnsafeViewBackward0(TransposeBackward0, None) | "
            "PyTorch ViewBackward0(BmmBackward0); ViewBackward0(BmmBackward0)",
        "linear:1": "ViewBackward0(MmBackward0); TBackward0(TBackward0) | "
            "PyTorch SqueezeBackward1(MmBackward0); TBackward0(TBackward0)",
        "sinc:0": "MulBackward0(None, WhereBackward0) | PyTorch WhereBackward0(None, MulBackward0)",
        "logit:0": "MulBackward0(DivBackward0, None) | PyTorch WhereBackward0(DivBackward0, None)",
        "hypot:0": "DivBackward0(MulBackward0, SqrtBackward0); DivBackward0(MulBackward0, SqrtBackward0) | "
            "PyTorch DivBackward0(MulBackward0, HypotBackward0); DivBackward0(MulBackward0, HypotBackward0)",
        "xlogy:0": "MulBackward0(MulBackward0, None); DivBackward0(MulBackward0, AccumulateGrad) | "
            "PyTorch MaskedFillBackward0(XlogyBackward0); DivBackward0(MulBackward0, AccumulateGrad)",
        "copysign:0": "MulBackward0(None, AddBackward0); None | "
            "PyTorch MulBackward0(None, MaskedFillBackward0); None",
        "addcmul:0": "None; MulBackward1(MulBackward0); MulBackward1(MulBackward0) | "
            "PyTorch None; MulBackward0(None, MulBackward1); MulBackward0(None, MulBackward1)",
        "addcdiv:0": "None; DivBackward0(None, AccumulateGrad); DivBackward0(MulBackward0, MulBackward0) | "
            "PyTorch None; MulBackward0(None, DivBackward0); MulBackward0(None, DivBackward0)",
        "float_power:0": "MulBackward0(None, PowBackward0) | PyTorch MulBackward0(None, MulBackward1)",
        "einsum:0": "PermuteBackward0(ViewBackward0); PermuteBackward0(ViewBackward0) | "
            "PyTorch SqueezeBackward1(PermuteBackward0); SqueezeBackward1(PermuteBackward0)",
        "inner:0": "PermuteBackward0(ViewBackward0); PermuteBackward0(ViewBackward0) | "
            "PyTorch PermuteBackward0(MulBackward0); PermuteBackward0(MulBackward0)",
        "dist:0": "MulBackward0(DivBackward0, None); NegBackward0(MulBackward0) | "
            "PyTorch MulBackward0(None, MaskedFillBackward0); NegBackward0(MulBackward0)",
        "logcumsumexp:0": "MulBackward0(ExpBackward0, FlipBackward0) | "
            "PyTorch SubBackward0(ExpBackward0, ExpBackward0)",
        "det:0": "MulBackward0(UnsqueezeBackward0, TBackward0) | "
            "PyTorch LinalgSolveExBackward0(TransposeBackward0, TransposeBackward0)",
        "linalg_solve:0": "NegBackward0(MmBackward0); MmBackward0(TBackward0, None) | "
            "PyTorch NegBackward0(MmBackward0); LinalgSolveExBackward0(TransposeBackward0, None)",
        "svd:0": "MmBackward0(MmBackward0, LinalgSvdBackward0) | "
            "PyTorch MmBackward0(LinalgSvdBackward0, MulBackward0)",
        "prod:2": "MulBackward0(None, ViewBackward0) | PyTorch MulBackward0(None, MulBackward0)",
        "norm:0": "MulBackward0(DivBackward0, None) | PyTorch MulBackward0(None, MaskedFillBackward0)",
        "norm:2": "MulBackward0(DivBackward0, None) | PyTorch MulBackward0(MulBackward0, MaskedFillBackward0)",
        **{f"renorm:{k}": "renorm_backward composed under create_graph: WhereBackward0(None, SubBackward0, None) | "
           "PyTorch WhereBackward0(MulBackward0, None)" for k in range(3)},
        **{f"frobenius_norm:{k}": "norm's create_graph rule: MulBackward0(DivBackward0, None) | PyTorch "
           "MulBackward0(None, MaskedFillBackward0)" for k in range(2)},
    },
    # found by the sweep in the tensor-API ops (issue 14), not fixed yet
    "forward": {
        "vander:1": "composed: CumprodBackward0; PyTorch writes in place (CopySlices)",
        "trapezoid": "composed: MulBackward0 / DivBackward0; PyTorch's C++ scalar ops record MulBackward1 / DivBackward1",
        "trapz": "composed: MulBackward0; PyTorch's C++ scalar op records MulBackward1",
    },
    "gradients": {
        "sgn": "backward as sign's; PyTorch's sgn of a real tensor fails in backward (unallocated storage)",
        "as_strided_scatter": "the gradient equals PyTorch's, whose gradient for self keeps the scattered elements "
                              "and zeroes the others (finite differences say the opposite)",
        "mode": "the gradient equals PyTorch's; central finite differences are meaningless at the ties a mode "
                "sample needs (PyTorch's gradcheck skips mode too)",
        "vander": "backward runs; PyTorch's own vander backward fails (its cumprod's input is modified in place)",
        "ldexp:0": "the gradient equals PyTorch's, whose pow(2, integer exponent) is 0 for negative exponents "
                   "(finite differences say 2^e)",
    },
    "variants": {},
}

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
