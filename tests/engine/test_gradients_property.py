"""Autograd gradients equal central finite differences (float64) over random expression graphs."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.engine import api
from gradrepl.engine.functions import tensor

T = api.TORCH

UNARY = [
    ("exp", lambda x: x.tanh().exp()),
    ("sin", lambda x: x.sin()),
    ("cos", lambda x: x.cos()),
    ("tanh", lambda x: x.tanh()),
    ("sigmoid", lambda x: x.sigmoid()),
    ("sqrt", lambda x: (x * x + 1).sqrt()),
    ("log", lambda x: (x * x + 1).log()),
    ("square", lambda x: x ** 2),
    ("pow3", lambda x: x ** 3),
    ("neg", lambda x: -x),
    ("softmax", lambda x: x.softmax(-1) if x.ndim else x),
    ("log_softmax", lambda x: x.log_softmax(0) if x.ndim else x),
    ("mean_keep", lambda x: x - x.mean(-1, keepdim=True) if x.ndim else x),
    ("recip", lambda x: 1 / (x * x + 1)),
    ("rsub", lambda x: 2 - x),
    ("rpow", lambda x: 2 ** x.tanh()),
    ("clone", lambda x: x.clone()),
    ("transpose_back", lambda x: x.t().exp().t() if x.ndim == 2 else x),
    ("index", lambda x: x[..., :1] * x if x.ndim else x),
    ("cumsum", lambda x: x.cumsum(0) if x.ndim else x),
    ("norm", lambda x: x.norm() * x),
]
BINARY = [
    ("add", lambda a, b: a + b),
    ("sub", lambda a, b: a - b),
    ("mul", lambda a, b: a * b),
    ("div", lambda a, b: a / (b * b + 1)),
    ("where", lambda a, b: T["where"](a > b, a * b, a - b)),
    ("maximum", lambda a, b: T["maximum"](a, b * 0.5)),
    ("pow", lambda a, b: (a * a + 1) ** b.tanh()),
]
SHAPES = [(), (3,), (2, 3), (2, 1), (1, 3)]  # pairwise broadcastable


def _build(ops, leaves):
    """Apply the chosen ops; every intermediate stays in play so graphs fan out and in."""
    vals = list(leaves)
    for kind, idx, i, j in ops:
        a = vals[i % len(vals)]
        if kind == "u":
            vals.append(UNARY[idx % len(UNARY)][1](a))
        else:
            b = vals[j % len(vals)]
            vals.append(BINARY[idx % len(BINARY)][1](a, b))
    out = vals[-1]
    for v in vals[len(leaves):-1]:
        out = out + v.sum() * 0.1
    return out.sum()


op_strategy = st.tuples(st.sampled_from("ub"), st.integers(0, 100), st.integers(0, 100), st.integers(0, 100))


@settings(max_examples=60, deadline=None)
@given(shapes=st.lists(st.sampled_from(SHAPES), min_size=1, max_size=3),
       ops=st.lists(op_strategy, min_size=1, max_size=6), seed=st.integers(0, 2 ** 16))
def test_gradients_match_finite_differences(shapes, ops, seed):
    rng = np.random.default_rng(seed)
    values = [rng.uniform(-1.5, 1.5, s) for s in shapes]
    leaves = [tensor(v.tolist(), dtype=T["float64"], requires_grad=True) for v in values]
    out = _build(ops, leaves)
    out.backward()
    eps = 1e-6
    for leaf, base in zip(leaves, values):
        got = np.asarray(leaf.grad.tolist()) if leaf.grad is not None else np.zeros(base.shape)
        num = np.zeros(base.shape)
        for k in np.ndindex(base.shape):
            plus, minus = base.copy(), base.copy()
            plus[k] += eps
            minus[k] -= eps
            fp = _value(ops, values, leaves, leaf, plus)
            fm = _value(ops, values, leaves, leaf, minus)
            num[k] = (fp - fm) / (2 * eps)
        assert np.allclose(got, num, rtol=1e-4, atol=1e-5), (ops, shapes, got, num)


def _value(ops, values, leaves, leaf, replaced):
    ins = [tensor((replaced if l is leaf else v).tolist(), dtype=T["float64"]) for l, v in zip(leaves, values)]
    with T["no_grad"]():
        return _build(ops, ins).item()


@settings(max_examples=25, deadline=None)
@given(shape=st.sampled_from([(2, 3), (3, 3), (1, 4)]), seed=st.integers(0, 2 ** 16))
def test_second_derivatives_match_finite_differences(shape, seed):
    rng = np.random.default_rng(seed)
    base = rng.uniform(-1, 1, shape)
    x = tensor(base.tolist(), dtype=T["float64"], requires_grad=True)

    def f(t):
        return (t.sin() * t ** 2 + t.exp() * t.tanh()).sum()

    (g,) = T["autograd"]["grad"](f(x), x, create_graph=True)
    (h,) = T["autograd"]["grad"](g.sum(), x)
    eps = 1e-5
    num = np.zeros(shape)
    for k in np.ndindex(shape):
        p, m = base.copy(), base.copy()
        p[k] += eps
        m[k] -= eps
        xp = tensor(p.tolist(), dtype=T["float64"], requires_grad=True)
        xm = tensor(m.tolist(), dtype=T["float64"], requires_grad=True)
        gp = T["autograd"]["grad"](f(xp), xp)[0].sum().item()
        gm = T["autograd"]["grad"](f(xm), xm)[0].sum().item()
        num[k] = (gp - gm) / (2 * eps)
    assert np.allclose(np.asarray(h.tolist()), num, rtol=1e-4, atol=1e-6)


@settings(max_examples=40, deadline=None)
@given(shapes=st.lists(st.sampled_from(SHAPES), min_size=1, max_size=2),
       ops=st.lists(op_strategy, min_size=1, max_size=4), seed=st.integers(0, 2 ** 16))
def test_create_graph_gradients_are_differentiable(shapes, ops, seed):
    """d/dx of (sum of the first gradient) by autograd twice equals finite differences of it."""
    rng = np.random.default_rng(seed)
    values = [rng.uniform(-1.5, 1.5, s) for s in shapes]

    def first_grad_sum(vals, create_graph):
        leaves = [tensor(v.tolist(), dtype=T["float64"], requires_grad=True) for v in vals]
        gs = T["autograd"]["grad"](_build(ops, leaves), leaves, create_graph=create_graph, allow_unused=True)
        total = None
        for g in gs:
            if g is not None:
                total = g.sum() if total is None else total + g.sum()
        return leaves, total

    leaves, total = first_grad_sum(values, True)
    if total is None or not total.requires_grad:
        return
    second = T["autograd"]["grad"](total, leaves, allow_unused=True)
    eps = 1e-5
    for j, base in enumerate(values):
        got = np.zeros(base.shape) if second[j] is None else np.asarray(second[j].tolist())
        num = np.zeros(base.shape)
        for k in np.ndindex(base.shape):
            plus = [v.copy() for v in values]
            minus = [v.copy() for v in values]
            plus[j][k] += eps
            minus[j][k] -= eps
            num[k] = (first_grad_sum(plus, False)[1].item() - first_grad_sum(minus, False)[1].item()) / (2 * eps)
        assert np.allclose(got, num, rtol=1e-3, atol=1e-4), (ops, shapes, got, num)
