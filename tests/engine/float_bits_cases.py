"""The float32 cases of tests/engine/test_float_bits.py, shared with the script that records
PyTorch's answers (scripts/record_float_bits_golden.py): each case calls `torch` (real
PyTorch, or gradrepl's namespace) on float32 inputs made here from fixed seeds.

Every element-wise op PyTorch runs through cpu_kernel_vec has a vectorised body (blocks of
32 elements) and a scalar tail, split again into one part per thread above 32768
elements: the sizes below cover a tail alone, a body alone, both, and the thread split;
"T" shapes are transposed (column-major) views. No torch import here."""
import numpy as np

SIZES = [1, 7, 8, 9, 15, 16, 17, 31, 33, 64, 1000, 4097, 100003]
T_SHAPES = [(8, 8), (40, 25), (17, 241), (331, 303)]
DIM_SHAPES = [(7, 9), (16, 17), (5, 33), (64, 64), (100, 1000), (2000, 50), (3, 5, 40), (8, 10, 7), (4, 3, 5)]


def values(n, seed):
    """n float32 values: normal with scale 3, a few large, tiny, zero, -0., inf, -inf, NaN."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n) * 3
    k = rng.integers(0, 40, n)
    x[k == 0] *= 30
    x[k == 1] *= 1e-30
    x[k == 2] = 0.0
    x[k == 3] = -0.0
    if n > 8:
        x[k == 4] = np.inf
        x[k == 5] = -np.inf
        x[k == 6] = np.nan
    return x.astype(np.float32)


def layouts(seed, limit=None):
    """(name, array, transposed) for every size and transposed shape (up to `limit` elements)."""
    out = []
    for n in SIZES:
        out.append((str(n), values(n, seed + n), False))
    for r, c in T_SHAPES:
        out.append((f"T{r}x{c}", values(r * c, seed + r * c).reshape(c, r), True))
    return [o for o in out if limit is None or o[1].size <= limit]


# ops whose scalar loop calls libm element by element only up to kernels._LIBM_MAX elements
# (float64 rounded once above)
LIMITS = {}


POS = np.abs


def UNIT(a):
    """Into [0, 1]: a logistic curve of the values (inf -> 1, -inf -> 0, NaN stays)."""
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-a.astype(np.float64)))).astype(np.float32)


def SIGNED_UNIT(a):
    """Into [-1, 1]: 2 * UNIT(a) - 1."""
    return (2 * UNIT(a).astype(np.float64) - 1).astype(np.float32)


def ABOVE1(a):
    """Into [1, inf]: 1 + |a| (NaN stays)."""
    return (1 + np.abs(a)).astype(np.float32)


def _unary(name, dom=None):
    return lambda torch, F, x: getattr(torch, name)(x)


def _functional(name, **kw):
    return lambda torch, F, x: getattr(F, name)(x, **kw)


# name: (domain of the input or None, forward)
UNARY = {
    "relu": (None, _unary("relu")),
    "sign": (None, _unary("sign")),
    "sigmoid": (None, _unary("sigmoid")),
    "expm1": (None, _unary("expm1")),
    "log1p": (POS, _unary("log1p")),
    "sinh": (None, _unary("sinh")),
    "cosh": (None, _unary("cosh")),
    "silu": (None, _functional("silu")),
    "softplus": (None, _functional("softplus")),
    "softplus_beta": (None, _functional("softplus", beta=2.0, threshold=5.0)),
    "logsigmoid": (None, _functional("logsigmoid")),
    "elu": (None, _functional("elu")),
    "elu_alpha": (None, _functional("elu", alpha=0.5)),
    "selu": (None, _functional("selu")),
    "celu": (None, _functional("celu", alpha=1.5)),
    "hardsigmoid": (None, _functional("hardsigmoid")),
    "gelu_tanh": (None, _functional("gelu", approximate="tanh")),
    "mish": (None, _functional("mish")),
    "hardswish": (None, _functional("hardswish")),
    "pow1.5": (POS, lambda torch, F, x: x ** 1.5),
    "pow_tensor": (POS, lambda torch, F, x: torch.pow(x, x * 0.5 - 1)),
    "pow_tensor_signed": (None, lambda torch, F, x: torch.pow(x, x.round())),
    "pow_scalar_base": (None, lambda torch, F, x: torch.pow(x, torch.tensor(1.7))),
    "smooth_l1": (None, lambda torch, F, x: F.smooth_l1_loss(x, x * 0.5 + 0.3, reduction="none")),
    "smooth_l1_beta": (None, lambda torch, F, x: F.smooth_l1_loss(x, x * 0.5 + 0.3, reduction="none", beta=0.3)),
    "huber": (None, lambda torch, F, x: F.huber_loss(x, x * 0.5 + 0.3, reduction="none", delta=1.7)),
    "rsqrt": (POS, _unary("rsqrt")),
    "logaddexp": (None, lambda torch, F, x: torch.logaddexp(x, x * x - 2)),
    "xlogy": (None, lambda torch, F, x: torch.xlogy(x, x * x + 0.5)),
    "atan2": (None, lambda torch, F, x: torch.atan2(x, x * x - 2)),
    "atan2_scalar": (None, lambda torch, F, x: torch.atan2(x, torch.tensor(-0.5))),
    "add_alpha": (None, lambda torch, F, x: torch.add(x, x.flip(0) if x.dim() == 1 else x.t().flip(0).t(), alpha=0.3)),
    "sub_alpha": (None, lambda torch, F, x: torch.sub(x, x * 0.7, alpha=2.5)),
    "addcmul": (None, lambda torch, F, x: torch.addcmul(x, x * 0.3, x + 1, value=0.7)),
    "addcdiv": (None, lambda torch, F, x: torch.addcdiv(x, x * 0.3, x + 1, value=0.7)),
    # contiguous inputs of more than one element: oneDNN's gelu_erf; the others PyTorch's kernel
    "gelu": (None, _functional("gelu")),
    "digamma": (None, _unary("digamma")),
    # contiguous: MKL's VML log of x / (1 - x); transposed: Sleef's logf and glibc's
    "logit": (UNIT, _unary("logit")),
    "exp2": (None, _unary("exp2")),
    "logaddexp2": (None, lambda torch, F, x: torch.logaddexp2(x, x * x - 2)),
    # libm's asinhf and acoshf on every element; Sleef's atanhf in the body, libm's in the tail;
    # Sleef's lgammaf on every element
    "asinh": (None, _unary("asinh")),
    "acosh": (ABOVE1, _unary("acosh")),
    "atanh": (SIGNED_UNIT, _unary("atanh")),
    "lgamma": (None, _unary("lgamma")),
}
# the gradient of sum(f(x) * g) for a fixed g
BACKWARD = ["sigmoid", "expm1", "log1p", "sinh", "cosh", "silu", "softplus", "softplus_beta", "logsigmoid", "elu",
            "selu", "celu", "hardswish", "rsqrt", "gelu_tanh", "mish", "gelu", "digamma", "logit", "exp2", "logaddexp2"]
# transposed inputs whose backward also runs with a gradient of the same (column-major) layout
SAME_ORDER = ["gelu"]


def same_order_grad(a):
    """The gradient for a transposed input made from `a` (shape (c, r)): laid out as `a`."""
    return np.random.default_rng(11 + a.size).standard_normal(a.shape).astype(np.float32)


# (name, forward over a dim)
DIM = {
    "cumsum": lambda torch, x, d: torch.cumsum(x, d),
    "cumprod": lambda torch, x, d: torch.cumprod(x * 0.3 + 1, d),
    "softmax": lambda torch, x, d: torch.softmax(x, d),
    "log_softmax": lambda torch, x, d: torch.log_softmax(x, d),
}


# (name, the gradient of sum(f(x, d) * g) for a fixed g; g's first slice along d where f
# reduces d)
def _dim_backward(f):
    def run(torch, x, d, g):
        x = x.detach().requires_grad_()
        y = f(torch, x, d)
        y.backward(g if y.dim() == x.dim() else g.select(d, 0) if y.dim() else g.reshape(-1)[0])
        return x.grad
    return run


DIM_BACKWARD = {"softmax": _dim_backward(lambda torch, x, d: torch.softmax(x, d)),
                "log_softmax": _dim_backward(lambda torch, x, d: torch.log_softmax(x, d)),
                "norm": _dim_backward(lambda torch, x, d: x.norm(dim=d)),
                "vector_norm_all": _dim_backward(lambda torch, x, d: torch.linalg.vector_norm(x * (d + 1)))}


# layer_norm over the last dim (rows, columns): output and the gradients of input, weight and
# bias (its kernel is the AVX2 build on AVX512 machines too: REGISTER_DISPATCH)
LAYER_NORM_SHAPES = [(4, 100), (4, 263), (4, 264), (3, 300), (5, 1000), (2, 4097), (64, 512), (200, 12), (6, 5)]


def layer_norm(torch, make, shape, affine):
    """make: a tensor from a NumPy array."""
    rows, cols = shape
    x = make(dim_input(shape, cols)).requires_grad_()
    w = make(dim_input((cols,), cols + 1)).requires_grad_() if affine else None
    b = make(dim_input((cols,), cols + 2)).requires_grad_() if affine else None
    y = torch.nn.functional.layer_norm(x, (cols,), w, b)
    y.backward(make(dim_input(shape, cols + 3)))
    return [y.detach(), x.grad] + ([w.grad, b.grad] if affine else [])


def _with_nans(a):
    a = a.copy()
    a.reshape(-1)[::7] = np.nan
    return a


# full and dim sums PyTorch's sum kernel computes (cascade_sum; its AVX2 build everywhere):
# nansum (NaN read as 0), and views TensorIterator walks in memory order
SUMS = {
    "nansum": lambda torch, make, a: torch.nansum(make(_with_nans(a))),
    "nanmean": lambda torch, make, a: torch.nanmean(make(_with_nans(a))),
    "nansum_dim0": lambda torch, make, a: torch.nansum(make(_with_nans(a)), 0),
    "nansum_dim1": lambda torch, make, a: torch.nansum(make(_with_nans(a)), 1, keepdim=True),
    "nanmean_dim1": lambda torch, make, a: torch.nanmean(make(_with_nans(a)), 1),
    "t_sum": lambda torch, make, a: make(a).t().sum(),
    "t_mean": lambda torch, make, a: make(a).t().mean(),
    "t_sum_dim0": lambda torch, make, a: make(a).t().sum(0),
    "step_rows_sum": lambda torch, make, a: make(a)[::2].sum(),
    "cols_slice_sum": lambda torch, make, a: make(a)[:, :5].sum(),
    "permuted_sum": lambda torch, make, a: make(a).reshape(a.shape[0], 1, a.shape[1]).permute(2, 0, 1).sum(),
    # reduced dims not innermost in memory, stride-0 (expanded) inputs, broadcasting backward
    "t_sum_dim1": lambda torch, make, a: make(a).t().sum(1),
    "t_mean_dim1": lambda torch, make, a: make(a).t().mean(1, keepdim=True),
    "expand_sum_dim0": lambda torch, make, a: make(a)[:1].expand(a.shape[0], a.shape[1]).sum(0),
    "expand_mean": lambda torch, make, a: make(a)[:, :1].expand(a.shape[0], a.shape[1]).mean(),
    "permuted3_sum_02": lambda torch, make, a: make(a).reshape(a.shape[0], 1, a.shape[1]).expand(-1, 3, -1)
    .permute(2, 0, 1).sum((0, 2)),
    "bcast_backward": lambda torch, make, a: _bcast_grad(make, a),
    "t_var": lambda torch, make, a: make(a).t().var(),
    "var_mean_dim0_mean": lambda torch, make, a: torch.var_mean(make(a), 0)[1],
    "std_mean_t_dim1": lambda torch, make, a: torch.cat(torch.std_mean(make(a).t(), 1)),
    "var_mean_all": lambda torch, make, a: torch.stack(torch.var_mean(make(a), correction=0)),
    "norm_dim0": lambda torch, make, a: make(a).norm(dim=0),
    "t_norm_dim0": lambda torch, make, a: make(a).t().norm(dim=0),
    "norm1_dim0": lambda torch, make, a: make(a).norm(p=1, dim=0),
    "expand_norm": lambda torch, make, a: make(a)[:1].expand(a.shape[0], a.shape[1]).norm(),
    "prod_dim1": lambda torch, make, a: (make(a) / 8 + 1).prod(1),
    "t_prod_dim0": lambda torch, make, a: (make(a).t() / 8 + 1).prod(0),
    "prod_all": lambda torch, make, a: (make(a[:2]) / 8 + 1).prod(),
    "t_logsumexp_dim0": lambda torch, make, a: torch.logsumexp(make(a).t(), 0),
    "t_logsumexp_dim1": lambda torch, make, a: torch.logsumexp(make(a).t(), 1),
}


def _bcast_grad(make, a):
    """The gradient of a row broadcast over a transposed tensor: its sum over dim 0 (sum_to_size)."""
    x = make(a).t()
    b = make(np.full((1, a.shape[0]), 0.5, np.float32)).requires_grad_()
    (x * b).backward(x)
    return b.grad
SUM_SHAPES = [(7, 9), (16, 17), (5, 33), (64, 64), (60, 1000), (3, 200)]


def dim_grad(shape, seed):
    return dim_input(shape, seed + 1000) / 2


def dim_input(shape, seed):
    x = np.random.default_rng(seed).standard_normal(shape) * 2
    return x.astype(np.float32)
