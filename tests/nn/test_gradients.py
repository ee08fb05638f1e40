"""Every nn kernel's backward rule equals central finite differences in float64, on inputs
hypothesis draws (seeded shapes and values), and create_graph keeps values equal."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.engine import api
from gradrepl.nn import functional as Fn

T = api.TORCH
F = Fn.namespace()


def _t(arr, grad=True):
    return T["tensor"](arr.tolist(), dtype=T["float64"], requires_grad=grad)


def numeric_grad(fn, arrays, k, eps=1e-6):
    base = [a.copy() for a in arrays]
    g = np.zeros_like(base[k])
    it = np.nditer(base[k], flags=["multi_index"])
    for _ in it:
        i = it.multi_index
        plus = [a.copy() for a in base]
        minus = [a.copy() for a in base]
        plus[k][i] += eps
        minus[k][i] -= eps
        fp = fn(*[_t(a, False) for a in plus]).sum().item()
        fm = fn(*[_t(a, False) for a in minus]).sum().item()
        g[i] = (fp - fm) / (2 * eps)
    return g


def check(fn, arrays, which=None, weights_seed=0):
    """d(sum(fn * w))/d input for random weights w, against finite differences."""
    which = range(len(arrays)) if which is None else which
    ts = [_t(a) for a in arrays]
    out = fn(*ts)
    w = np.random.default_rng(weights_seed).normal(size=out.shape)
    (out * _t(w, False)).sum().backward()

    def weighted(*xs):
        return fn(*xs) * _t(w, False)
    for k in which:
        want = numeric_grad(weighted, arrays, k)
        got = np.array(ts[k].grad.tolist())
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


arrays = st.integers(0, 2 ** 32 - 1).map(lambda s: np.random.default_rng(s))

ACTIVATIONS = ["gelu", "elu", "selu", "celu", "silu", "mish", "softplus", "hardtanh", "relu6", "hardsigmoid",
               "hardswish", "logsigmoid", "softsign", "tanhshrink", "leaky_relu"]


@pytest.mark.parametrize("name", ACTIVATIONS)
@settings(max_examples=5, deadline=None)
@given(rng=arrays)
def test_activation_gradients(name, rng):
    x = rng.normal(size=(3, 4)) * 2
    x[np.abs(x) < 1e-3] = 0.5        # away from kinks (relu6, hardtanh at 0 are smooth; 3/-3/1/-1 are not)
    for kink in (1.0, -1.0, 3.0, -3.0, 6.0, 0.0):
        x[np.abs(x - kink) < 1e-3] += 0.01
    check(lambda t: F[name](t), [x])


def test_gelu_tanh_and_softplus_arguments():
    rng = np.random.default_rng(1)
    check(lambda t: F["gelu"](t, approximate="tanh"), [rng.normal(size=(5,))])
    check(lambda t: F["softplus"](t, beta=2.0, threshold=1.0), [rng.normal(size=(5,)) + 0.3])


@pytest.mark.parametrize("name", ["smooth_l1_loss", "huber_loss", "binary_cross_entropy_with_logits", "mse_loss",
                                  "l1_loss"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@settings(max_examples=3, deadline=None)
@given(rng=arrays)
def test_loss_gradients(name, reduction, rng):
    x = rng.normal(size=(3, 4))
    y = rng.uniform(size=(3, 4)) if "logits" in name else rng.normal(size=(3, 4))
    if name != "binary_cross_entropy_with_logits":
        d = x - y
        x[np.abs(np.abs(d) - 1) < 1e-3] += 0.01     # the beta/delta kink
    check(lambda a, b: F[name](a, b, reduction=reduction), [x, y])


def test_bce_with_logits_weights_and_pos_weight():
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=(4, 3)), rng.uniform(size=(4, 3))
    w, pw = _t(rng.uniform(size=3), False), _t(rng.uniform(size=3) * 3, False)
    check(lambda a, b: F["binary_cross_entropy_with_logits"](a, b, weight=w, pos_weight=pw), [x, y])


@settings(max_examples=4, deadline=None)
@given(rng=arrays, stride=st.integers(1, 2), padding=st.integers(0, 1), groups=st.sampled_from([1, 2]))
def test_conv2d_gradients(rng, stride, padding, groups):
    x = rng.normal(size=(2, 4, 5, 4))
    w = rng.normal(size=(6, 4 // groups, 3, 2))
    b = rng.normal(size=(6,))
    check(lambda a, k, c: F["conv2d"](a, k, c, stride=stride, padding=padding, groups=groups), [x, w, b])


def test_conv1d_gradients_with_dilation():
    rng = np.random.default_rng(3)
    check(lambda a, k: F["conv1d"](a, k, None, padding=2, dilation=2), [rng.normal(size=(2, 3, 7)),
                                                                        rng.normal(size=(4, 3, 3))])


@settings(max_examples=4, deadline=None)
@given(rng=arrays, ceil=st.booleans(), padding=st.integers(0, 1))
def test_pool_gradients(rng, ceil, padding):
    x = rng.permutation(2 * 3 * 6 * 5).reshape(2, 3, 6, 5) / 7.0     # distinct values: a unique max
    check(lambda a: F["max_pool2d"](a, 3, 2, padding, ceil_mode=ceil), [x])
    check(lambda a: F["avg_pool2d"](a, 3, 2, padding, ceil_mode=ceil), [x])
    check(lambda a: F["avg_pool2d"](a, 2, 1, padding, count_include_pad=False), [x])


@settings(max_examples=4, deadline=None)
@given(rng=arrays, out_h=st.integers(1, 6), out_w=st.integers(2, 5))
def test_adaptive_avg_pool_gradients(rng, out_h, out_w):
    x = rng.normal(size=(2, 3, 6, 5))   # overlapping windows whenever the sizes do not divide
    check(lambda a: F["adaptive_avg_pool2d"](a, (out_h, out_w)), [x])
    check(lambda a: F["adaptive_avg_pool1d"](a, out_w), [rng.normal(size=(2, 7))])


def test_embedding_gradient_adds_repeated_rows_and_skips_padding():
    weight = T["randn"](5, 3, dtype=T["float64"], requires_grad=True)
    idx = T["tensor"]([[0, 2, 2], [4, 0, 1]])
    F["embedding"](idx, weight, padding_idx=0).sum().backward()
    assert weight.grad.tolist() == [[0.0] * 3, [1.0] * 3, [2.0] * 3, [0.0] * 3, [1.0] * 3]


@settings(max_examples=4, deadline=None)
@given(rng=arrays)
def test_norm_gradients(rng):
    x = rng.normal(size=(4, 3, 5))
    g, b = rng.normal(size=(3, 5)), rng.normal(size=(3, 5))
    check(lambda a, w, c: F["layer_norm"](a, (3, 5), w, c), [x, g, b])
    rm, rv = _t(np.zeros(3), False), _t(np.ones(3), False)
    check(lambda a, w, c: F["batch_norm"](a, rm, rv, w, c, training=True), [x, g[:, 0], b[:, 0]])
    check(lambda a, w, c: F["batch_norm"](a, rm, rv, w, c, training=False), [x, g[:, 0], b[:, 0]])


def test_linear_addmm_gradients_for_every_rank():
    rng = np.random.default_rng(4)
    w, b = rng.normal(size=(3, 4)), rng.normal(size=(3,))
    for shape in [(4,), (2, 4), (2, 5, 4)]:
        check(lambda a, k, c: F["linear"](a, k, c), [rng.normal(size=shape), w, b])


def test_pad_and_composed_losses():
    rng = np.random.default_rng(5)
    check(lambda a: F["pad"](a, (1, 2, -1, 1), value=0.5), [rng.normal(size=(2, 3, 4))])
    x, p = rng.normal(size=(4, 5)), rng.dirichlet(np.ones(5), size=4)
    check(lambda a: F["cross_entropy"](a, _t(p, False), label_smoothing=0.1), [x])
    check(lambda a: F["cross_entropy"](a, T["tensor"]([1, 0, 4, 2]), label_smoothing=0.2), [x])
    check(lambda a: F["kl_div"](a.log_softmax(1), _t(p, False), reduction="batchmean"), [x])
    check(lambda a, b: F["cosine_similarity"](a, b), [x, rng.normal(size=(4, 5))])


@pytest.mark.parametrize("name", ["silu", "softplus", "elu", "selu", "celu", "logsigmoid", "gelu", "mish",
                                  "hardswish"])
def test_create_graph_gives_second_derivatives_of_activations(name):
    x0 = np.array([0.3, -1.2, 2.0, 3.5])
    x = _t(x0)
    (g,) = T["autograd"]["grad"](F[name](x).sum(), x, create_graph=True)
    assert g.requires_grad
    g.sum().backward()

    def first(a):
        xx = _t(np.array(a.tolist()))
        (gg,) = T["autograd"]["grad"](F[name](xx).sum(), xx)
        return gg
    np.testing.assert_allclose(x.grad.tolist(), numeric_grad(first, [x0], 0), rtol=1e-5, atol=1e-6)


def test_create_graph_through_gelu_tanh():
    x0 = np.array([0.3, -1.2, 2.0])
    x = _t(x0)
    (g,) = T["autograd"]["grad"](F["gelu"](x, approximate="tanh").sum(), x, create_graph=True)
    g.sum().backward()

    def first(a):
        xx = _t(np.array(a.tolist()))
        (gg,) = T["autograd"]["grad"](F["gelu"](xx, approximate="tanh").sum(), xx)
        return gg
    np.testing.assert_allclose(x.grad.tolist(), numeric_grad(first, [x0], 0), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("norm", ["layer_norm", "batch_norm", "batch_norm_eval"])
def test_second_derivatives_through_norms_match_finite_differences(norm):
    """The input gradient of a normalisation, differentiated again (PyTorch's
    NativeLayerNormBackwardBackward0 / NativeBatchNormBackwardBackward0), against central
    differences of the first-order gradient, for the input and the weight."""
    rng = np.random.default_rng(3)
    x0, w0, b0 = rng.normal(size=(4, 3)), rng.normal(size=3), rng.normal(size=3)
    rm, rv = _t(rng.normal(size=3), grad=False), _t(rng.uniform(0.5, 2, size=3), grad=False)

    def penalty(xa, wa, create_graph=True):
        x, w, b = _t(xa), _t(wa), _t(b0)
        if norm == "layer_norm":
            y = F["layer_norm"](x, (3,), w, b)
        else:
            y = F["batch_norm"](x, rm.clone(), rv.clone(), w, b, training=norm == "batch_norm")
        (gx,) = T["autograd"]["grad"]((y.tanh() * y).sum(), x, create_graph=create_graph)
        return x, w, (gx * gx).sum()

    x, w, p = penalty(x0, w0)
    assert p.requires_grad
    gx, gw = T["autograd"]["grad"](p, [x, w])
    for k, (got, base) in enumerate(((gx, x0), (gw, w0))):
        num = np.zeros(base.shape)
        for i in np.ndindex(base.shape):
            vals = []
            for step in (1e-6, -1e-6):
                moved = [x0.copy(), w0.copy()]
                moved[k][i] += step
                vals.append(penalty(moved[0], moved[1], create_graph=False)[2].item())
            num[i] = (vals[0] - vals[1]) / 2e-6
        np.testing.assert_allclose(got.tolist(), num, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("groups,stride,padding", [(1, 1, 0), (2, 2, 1)])
def test_gradient_penalty_through_a_convolution_matches_finite_differences(groups, stride, padding):
    """WGAN-GP's penalty: the input gradient of a conv net, itself differentiated (PyTorch's
    ConvolutionBackwardBackward0), against central differences of the first-order gradient."""
    rng = np.random.default_rng(7)
    x0, w0, b0 = rng.normal(size=(2, 2, 5, 5)), rng.normal(size=(2, 2 // groups, 3, 3)), rng.normal(size=2)

    def penalty(xa, wa, ba, create_graph=True):
        x, w, b = _t(xa), _t(wa), _t(ba)
        y = F["conv2d"](x, w, b, stride=stride, padding=padding, groups=groups).tanh()
        (gx,) = T["autograd"]["grad"](y.sum(), x, create_graph=create_graph)
        return x, w, b, (gx * gx).sum()

    x, w, b, p = penalty(x0, w0, b0)
    assert p.grad_fn is not None
    gw, gx = T["autograd"]["grad"](p, [w, x])
    for k, (got, base) in enumerate(((gw, w0), (gx, x0))):
        num = np.zeros(base.shape)
        for i in np.ndindex(base.shape):
            vals = []
            for step in (1e-6, -1e-6):
                moved = [x0.copy(), w0.copy()]
                moved[1 - k][i] += step
                vals.append(penalty(moved[0], moved[1], b0, create_graph=False)[3].item())
            num[i] = (vals[0] - vals[1]) / 2e-6
        np.testing.assert_allclose(got.tolist(), num, rtol=1e-5, atol=1e-6)
