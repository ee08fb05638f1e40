"""The float64 cases of tests/engine/test_float64_bits.py, shared with the script that records
PyTorch's answers (scripts/record_float64_bits_golden.py): each case calls `torch` (real
PyTorch, or gradrepl's namespace) on float64 inputs made here from fixed seeds.

PyTorch computes these with Sleef's double functions (Vectorized<double>: 4 lanes on AVX2, 8
on AVX512) in the vectorised body of cpu_kernel_vec (blocks of two vectors) and the C
library's in the scalar tail, or with Sleef on every element (vml.h's map: expm1, log1p,
lgamma; softmax's rows); erfcx, log_ndtr and the Bessel functions are scalar code. The sizes cover a tail alone, a
body alone, both, and the split into one part per thread above 32768 elements; "T" shapes
are transposed (column-major) views. No torch import here."""
import numpy as np

SIZES = [1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 1000, 100003]
T_SHAPES = [(8, 8), (17, 241)]


def values(n, seed):
    """n float64 values: normal with scale 3, a few wide (up to 1e300), large (|x| < 800),
    tiny, zero, -0., inf, -inf, NaN."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n) * 3
    k = rng.integers(0, 50, n)
    x[k == 0] = np.exp(rng.uniform(-690, 690, (k == 0).sum())) * np.sign(rng.standard_normal((k == 0).sum()))
    x[k == 1] = rng.uniform(-800, 800, (k == 1).sum())
    x[k == 2] *= 1e-9
    x[k == 3] = 0.0
    x[k == 4] = -0.0
    if n > 8:
        x[k == 5] = np.inf
        x[k == 6] = -np.inf
        x[k == 7] = np.nan
    return x


def layouts(seed):
    """(name, array, transposed) for every size and transposed shape."""
    out = [(str(n), values(n, seed + n), False) for n in SIZES]
    out += [(f"T{r}x{c}", values(r * c, seed + r * c).reshape(c, r), True) for r, c in T_SHAPES]
    return out


def POS(a):
    return np.abs(a)


def UNIT(a):
    """Into [0, 1]: a logistic curve of the values (inf -> 1, -inf -> 0, NaN stays)."""
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-a))


def SIGNED_UNIT(a):
    return 2 * UNIT(a) - 1


def _unary(name):
    return lambda torch, F, x: getattr(torch, name)(x)


def _special(name):
    return lambda torch, F, x: getattr(torch.special, name)(x)


def _functional(name, **kw):
    return lambda torch, F, x: getattr(F, name)(x, **kw)


# name: (domain of the input or None, forward)
UNARY = {
    "expm1": (None, _unary("expm1")),
    "log1p": (POS, _unary("log1p")),
    "sinh": (None, _unary("sinh")),
    "cosh": (None, _unary("cosh")),
    "exp2": (None, _unary("exp2")),
    "atanh": (SIGNED_UNIT, _unary("atanh")),
    "lgamma": (None, _unary("lgamma")),
    "logit": (UNIT, _unary("logit")),
    "sigmoid": (None, _unary("sigmoid")),
    "silu": (None, _functional("silu")),
    "softplus": (None, _functional("softplus")),
    "softplus_beta": (None, _functional("softplus", beta=2.0, threshold=5.0)),
    "elu": (None, _functional("elu")),
    "selu": (None, _functional("selu")),
    "celu": (None, _functional("celu", alpha=1.5)),
    "gelu": (None, _functional("gelu")),
    "gelu_tanh": (None, _functional("gelu", approximate="tanh")),
    "mish": (None, _functional("mish")),
    "logsigmoid": (None, _functional("logsigmoid")),
    "pow1.5": (POS, lambda torch, F, x: x ** 1.5),
    "pow_tensor": (POS, lambda torch, F, x: torch.pow(x, x * 0.5 - 1)),
    "pow_signed": (None, lambda torch, F, x: torch.pow(x, x.round())),
    "atan2": (None, lambda torch, F, x: torch.atan2(x, x * x - 2)),
    "hypot": (None, lambda torch, F, x: torch.hypot(x, x * 0.7 - 1)),
    "logaddexp": (None, lambda torch, F, x: torch.logaddexp(x, x * x - 2)),
    "logaddexp2": (None, lambda torch, F, x: torch.logaddexp2(x, x * x - 2)),
    "erfcx": (None, _special("erfcx")),
    "log_ndtr": (None, _special("log_ndtr")),
    "softmax": (None, lambda torch, F, x: torch.softmax(x.reshape(-1, x.shape[-1]) if x.dim() else x, -1)),
    "log_softmax": (None, lambda torch, F, x: torch.log_softmax(x.reshape(-1, x.shape[-1]) if x.dim() else x, -1)),
}
# the gradient of sum(f(x) * g) for a fixed g
BACKWARD = ["sigmoid", "expm1", "sinh", "cosh", "silu", "softplus", "elu", "selu", "celu", "gelu", "gelu_tanh",
            "mish", "logsigmoid", "logaddexp2", "softmax", "log_softmax"]


def grad_for(a):
    return np.random.default_rng(7 + a.size).standard_normal(a.size)


# Cephes' Bessel functions (scalar code, GCC's fused multiply-adds: engine/cephes.py)
BESSEL = {name: (None, _special(name)) for name in (
    "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
    "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1")}
UNARY.update(BESSEL)
# float32 cases of the same kind (scalar code): erfcx, log_ndtr and the Bessel functions
UNARY32 = {"erfcx": (None, _special("erfcx")), "log_ndtr": (None, _special("log_ndtr")), **BESSEL}
