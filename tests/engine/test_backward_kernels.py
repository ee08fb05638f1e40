"""PyTorch's backward kernels as ops of their own (tanh_backward, threshold_backward,
mse_loss_backward, ...): under create_graph=True the gradient's grad_fn is their node
(TanhBackwardBackward0, ...), whose rule gives the next derivative. Checked here against
float64 central finite differences on random inputs (second and third order), for bit
equality with the plain backward, and for staying out of user code's reach.
The node names and next_functions themselves are compared with PyTorch by the op sweep
(tests/engine/test_op_sweep.py)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.engine import api
from gradrepl.engine.backward import grad as autograd_grad
from gradrepl.engine.functions import no_grad
from gradrepl.engine.ops import REGISTRY
from gradrepl.engine.tensor import Tensor

T = api.TORCH
F = T["nn"]["functional"]


def _target(x):
    """A fixed target of x's shape (constant: finite differences must not move it)."""
    n = x.numel()
    return T["tensor"](np.linspace(-0.6, 0.7, n).reshape(tuple(x.shape)).tolist(), dtype=x.dtype)


# name, f(x) -> tensor, the backward node PyTorch records under create_graph
KERNELS = [
    ("tanh", lambda x: x.tanh(), "TanhBackwardBackward0"),
    ("sigmoid", lambda x: x.sigmoid(), "SigmoidBackwardBackward0"),
    ("gelu", lambda x: F["gelu"](x), "GeluBackwardBackward0"),
    ("gelu_tanh", lambda x: F["gelu"](x, approximate="tanh"), "GeluBackwardBackward0"),
    ("elu", lambda x: F["elu"](x, 0.7), "EluBackwardBackward0"),
    ("selu", lambda x: F["selu"](x), "EluBackwardBackward0"),
    ("celu", lambda x: F["celu"](x, 1.3), "EluBackwardBackward0"),
    ("softplus", lambda x: F["softplus"](x, beta=1.5, threshold=2.0), "SoftplusBackwardBackward0"),
    ("logsigmoid", lambda x: F["logsigmoid"](x), "LogSigmoidBackwardBackward0"),
    ("hardswish", lambda x: F["hardswish"](x * 3), "MulBackward0"),
    ("softmax", lambda x: x.softmax(-1), "SoftmaxBackwardDataBackward0"),
    ("log_softmax", lambda x: x.log_softmax(-1), "LogSoftmaxBackwardDataBackward0"),
    ("mse", lambda x: F["mse_loss"](x, _target(x)), "MseLossBackwardBackward0"),
    ("mse_none", lambda x: F["mse_loss"](x, _target(x), reduction="none"), "MseLossBackwardBackward0"),
    ("bce", lambda x: F["binary_cross_entropy"](x.sigmoid(), _target(x).sigmoid()), "SigmoidBackwardBackward0"),
    ("smooth_l1", lambda x: F["smooth_l1_loss"](x, _target(x), beta=0.5), "SmoothL1LossBackwardBackward0"),
    ("huber", lambda x: F["huber_loss"](x, _target(x), delta=0.4), "HuberLossBackwardBackward0"),
    ("cross_entropy", lambda x: F["cross_entropy"](x, T["tensor"]([1, 0])) if x.ndim == 2 else x.log_softmax(0),
     None),
    ("avg_pool", lambda x: F["avg_pool2d"](x.reshape(1, 1, 2, -1), (1, 2)).pow(2), "ViewBackward0"),
    ("max_pool", lambda x: F["max_pool2d"](x.reshape(1, 1, 2, -1), (1, 2)).pow(2), "ViewBackward0"),
    ("avg_pool4d", lambda x: F["avg_pool2d"](x.reshape(1, 2, 4), (1, 2)).pow(2) if x.numel() == 8 else x.tanh(), None),
]
EPS = 1e-6


def _leaf(values):
    return T["tensor"](values.tolist(), dtype=T["float64"], requires_grad=True)


def _weighted(t, w):
    return (t * T["tensor"](w.tolist(), dtype=T["float64"])).sum()


def _derivative(fn, values, weights, order):
    """d^order/dx^order of fn, contracted with weights[0..order-1] (all but the last stay graphs)."""
    x = _leaf(values)
    out = _weighted(fn(x), weights[0])
    for k in range(1, order + 1):
        (g,) = autograd_grad(out, [x], create_graph=k < order, allow_unused=True)
        if g is None:
            return np.zeros(values.shape)
        if k == order:
            return np.asarray(g.tolist())
        if not g.requires_grad:
            return np.zeros(values.shape)
        out = _weighted(g, weights[k])
    raise AssertionError


def _numerical(fn, values, weights, order):
    """Central differences of the (order - 1)-th contracted derivative."""
    num = np.zeros(values.shape)
    for i in np.ndindex(values.shape):
        vals = []
        for step in (EPS, -EPS):
            moved = values.copy()
            moved[i] += step
            if order == 1:
                with no_grad():
                    vals.append(_weighted(fn(_leaf(moved)), weights[0]).item())
            else:
                vals.append(float(np.sum(_derivative(fn, moved, weights, order - 1) * weights[order - 1])))
        num[i] = (vals[0] - vals[1]) / (2 * EPS)
    return num


def _away_from_kinks(values):
    """Keep inputs off the kinks of relu-like and piecewise kernels (finite differences jump there)."""
    return np.where(np.abs(values) < 0.05, values + 0.1, values)


@pytest.mark.parametrize("name,fn,node", KERNELS, ids=[k[0] for k in KERNELS])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2 ** 16), shape=st.sampled_from([(2, 4), (2, 6)]))
def test_second_and_third_derivatives_match_finite_differences(name, fn, node, seed, shape):
    rng = np.random.default_rng(seed)
    values = _away_from_kinks(rng.uniform(-1.8, 1.8, shape))
    weights = [rng.uniform(-1, 1, shape if k else tuple(fn(_leaf(values)).shape)) for k in range(3)]
    for order in (2, 3):
        got = _derivative(fn, values, weights, order)
        np.testing.assert_allclose(got, _numerical(fn, values, weights, order), rtol=1e-4, atol=2e-5)


@pytest.mark.parametrize("name,fn,node", [k for k in KERNELS if k[2] is not None], ids=[k[0] for k in KERNELS if k[2]])
def test_the_gradient_is_the_kernels_node_with_the_plain_backwards_bits(name, fn, node):
    values = _away_from_kinks(np.linspace(-1.7, 1.9, 8).reshape(2, 4))
    for dtype in ("float32", "float64"):
        x = T["tensor"](values.tolist(), dtype=T[dtype], requires_grad=True)
        w = T["tensor"](np.cos(np.arange(fn(x).numel())).reshape(tuple(fn(x).shape)).tolist(), dtype=T[dtype])
        (plain,) = autograd_grad((fn(x) * w).sum(), [x])
        (graphed,) = autograd_grad((fn(x) * w).sum(), [x], create_graph=True)
        assert graphed.grad_fn.name() == node and graphed.requires_grad
        assert graphed.tolist() == plain.tolist()


def test_backward_kernels_stay_out_of_user_code():
    kernels = [name for name, op in REGISTRY.items() if name.endswith(("_backward", "_backward_data"))]
    assert len(kernels) >= 20
    for name in kernels:
        assert name not in T and name not in F
        assert not hasattr(Tensor, name)


def test_a_rule_under_create_graph_records_cpp_scalar_nodes_but_user_code_python_ones():
    x = T["tensor"]([0.3, -0.4], dtype=T["float64"], requires_grad=True)
    (g,) = autograd_grad(x.pow(3).sum(), [x], create_graph=True)      # grad * (3 * self.pow(2))
    assert g.grad_fn.next_functions[1][0].name() == "MulBackward1"
    assert (x * 2).grad_fn.name() == "MulBackward0" and (x + 1).grad_fn.name() == "AddBackward0"
    hooked = []
    y = x * 3
    y.register_hook(lambda grad: hooked.append((grad * 2).grad_fn.name()))
    autograd_grad(y.sum() * x.sum(), [x], create_graph=True)
    assert hooked == ["MulBackward0"]


@pytest.mark.parametrize("shape,some", [((4, 3), True), ((3, 4), True), ((4, 3), False), ((3, 3), True)])
def test_svd_gradients_match_finite_differences(shape, some):
    """LinalgSvdBackward0 for U, S and V together, through a loss that does not depend on
    the singular vectors' signs; its second derivative through create_graph as well."""
    rng = np.random.default_rng(11)
    a0 = rng.normal(size=shape)
    k = min(shape)
    w_u, w_v = rng.normal(size=(shape[0], k)), rng.normal(size=(shape[1], k))
    w_s, m = rng.normal(size=k), rng.normal(size=shape)

    def loss(a):
        u, s, v = a.svd(some=some)
        u, v = u[:, :k], v[:, :k]
        c = T["tensor"](np.linspace(0.5, 1.5, k).tolist(), dtype=T["float64"])
        w = [T["tensor"](x.tolist(), dtype=T["float64"]) for x in (w_u, w_v, w_s, m)]
        return ((u * u * w[0]).sum() + (s * w[2]).sum() + (v * v * w[1]).sum()
                + ((u * c) @ v.t() * w[3]).sum() + (s * s).sum() * 0.1)

    a = _leaf(a0)
    (g,) = autograd_grad(loss(a), [a], create_graph=True)
    num = np.zeros(shape)
    for i in np.ndindex(shape):
        vals = []
        for step in (EPS, -EPS):
            moved = a0.copy()
            moved[i] += step
            with no_grad():
                vals.append(loss(_leaf(moved)).item())
        num[i] = (vals[0] - vals[1]) / (2 * EPS)
    np.testing.assert_allclose(g.tolist(), num, rtol=1e-5, atol=1e-6)
    assert g.requires_grad
