""":explain against the engine's own backward and PyTorch's recorded gradients and order."""
import numpy as np
import pytest
from viz_cases import GOLDEN, case_header, case_source, run_case
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.viz import explain as E
from gradrepl.viz import symbolic as S
from gradrepl.viz.graph import Names, VizError, tensor_array


def _explain(session, root, vector=None, source=None):
    ns = session.namespace
    return E.explain_tensor(ns[root], Names(ns), root_name=root, gradient=None if vector is None else ns[vector],
                            source=source)


def _preorder(root_fn):
    index, stack = {}, [root_fn]
    while stack:
        node = stack.pop()
        if node in index:
            continue
        index[node] = len(index)
        stack.extend(c for c, _ in reversed(node.next_functions) if c is not None)
    return index


def test_leaf_gradients_equal_pytorch_and_the_engine(case):
    root, vector = case_header(case)
    session = run_case(case)
    ex = _explain(session, root, vector)
    got = {title: g for title, _, g in ex.leaf_grads}
    expected = GOLDEN[case]["grads"]
    assert set(got) == {k for k, v in expected.items() if v is not None}
    for name, g in got.items():
        np.testing.assert_allclose(g, np.array(expected[name]), rtol=2e-6, atol=1e-6)
    # the engine's own backward puts exactly the same numbers into .grad
    ns = session.namespace
    ns[root].backward(None if vector is None else ns[vector])
    for name, g in got.items():
        assert np.array_equal(tensor_array(ns[name].grad), g)


def test_steps_run_in_pytorchs_order(case):
    root, vector = case_header(case)
    session = run_case(case)
    tensor = session.namespace[root]
    index = _preorder(tensor.grad_fn)
    order = []
    steps = _explain(session, root, vector).steps
    from gradrepl.engine.autograd import run_backward
    from gradrepl.engine.tensor import wrap
    seed = np.ones_like(tensor_array(tensor)) if vector is None else tensor_array(session.namespace[vector])
    run_backward([tensor], [wrap(seed)], retain_graph=True, create_graph=False, inputs=None,
                 accumulate=False, allow_unused=True, trace=lambda node, gi, go: order.append(index[node]))
    assert order == GOLDEN[case]["order"]
    assert [s.name for s in steps] == [GOLDEN[case]["nodes"][i][0].removeprefix("torch::autograd::")
                                       for i in order]


def test_004_ends_at_4_5_with_the_tutorials_formula():
    session = run_case("004_out")
    ex = _explain(session, "out", source=case_source("004_out"))
    ((title, leaf, g),) = ex.leaf_grads
    assert title == "x" and np.all(g == np.float32(4.5))
    assert [s.name for s in ex.steps] == ["MeanBackward0", "MulBackward0", "MulBackward0", "AddBackward0"]
    assert ex.steps[3].contributions == 2          # y * y: two gradients summed into y
    assert ex.summary == ["out = mean(3 (x_i + 2)^2)  = 1/4 Σ_i 3 (x_i + 2)^2",
                          "d out / d x_i = 3/2 (x_i + 2)  = 4.5 at x_i = 1"]
    text = E.to_text(ex, width=100)
    assert "grad_self = grad * other" in text
    assert "-> AccumulateGrad -> x.grad  += [[4.5000, 4.5000], [4.5000, 4.5000]]" in text
    assert text.rstrip().endswith("d out / d x_i = 3/2 (x_i + 2)  = 4.5 at x_i = 1")


def test_learners_state_is_untouched():
    from gradrepl.lang import run_source
    session = run_case("004_out")
    run_source("y.retain_grad()\nx.grad = torch.zeros(2, 2)", session)
    ns = session.namespace
    before = ns["x"].grad
    _explain(session, "out")
    assert ns["x"].grad is before and np.all(tensor_array(before) == 0)
    assert ns["y"].grad is None                     # retain_grad's slot restored
    ns["out"].backward()                            # the graph was kept: one real backward still works
    assert np.all(tensor_array(ns["x"].grad) == np.float32(4.5))


def test_freed_graph_is_explained_not_crashed():
    from gradrepl.lang import run_source
    session = run_case("004_out")
    run_source("out.backward()", session)
    with pytest.raises(VizError, match="freed by a backward"):
        _explain(session, "out")


def test_leaf_and_plain_tensors_have_nothing_to_explain():
    session = run_case("004_out")
    with pytest.raises(VizError, match="is a leaf"):
        _explain(session, "x")
    from gradrepl.lang import run_source
    run_source("c = torch.ones(2)", session)
    with pytest.raises(VizError, match="no autograd graph"):
        _explain(session, "c")


def test_non_scalar_starts_from_ones_and_says_so():
    session = run_case("000_square")
    ex = _explain(session, "y")
    assert ex.implicit and "not a scalar" in E.to_text(ex)
    ((_, _, g),) = ex.leaf_grads
    assert g.tolist() == [2.0, 4.0, 6.0, 8.0]


@pytest.mark.parametrize("source, root, expected", [
    ("x = torch.tensor([1., 2.], requires_grad=True)\nout = (torch.exp(x) * x - 1 / x).sum()", "out",
     "d out / d x_i = exp(x_i)·x_i + exp(x_i) + 1 / x_i^2"),
    ("a = torch.tensor(2., requires_grad=True)\nb = torch.tensor(3., requires_grad=True)\nc = a * b + a.sin() / b",
     "c", "d c / d b = a - sin(a) / b^2  = 1.89897 at a = 2, b = 3"),
    ("x = torch.ones(2, requires_grad=True)\ny = x**2 + 3\nz = y * x\ns = z.sum()", "s",
     "d s / d x_i = 3 (x_i^2 + 1)  = 6 at x_i = 1"),
])
def test_symbolic_summaries(source, root, expected):
    from gradrepl.lang import Session, run_source
    session = Session(write=lambda text: None)
    assert run_source(source, session).ok
    assert expected in _explain(session, root, source=source).summary


@pytest.mark.parametrize("case", ["001_detach", "004_while", "001_jacobian", "004_sum"])
def test_no_summary_where_the_code_is_not_straight_line_elementwise(case):
    root, vector = case_header(case)
    session = run_case(case)
    assert _explain(session, root, vector, source=case_source(case)).summary == []


# ----------------------------------------------------------------- the calculus itself
_leaves = st.sampled_from([("s", "x"), ("s", "y")]) | st.integers(-3, 3).map(lambda n: ("c", S.Fraction(n)))


def _extend(children):
    return st.one_of(
        st.lists(children, min_size=2, max_size=3).map(lambda ts: ("+", ts)),
        st.lists(children, min_size=2, max_size=3).map(lambda ts: ("*", ts)),
        st.tuples(children, st.integers(-2, 3)).map(lambda p: ("^", ("+", [p[0], ("s", "x"), ("c", S.Fraction(5))]),
                                                               S.Fraction(p[1]))),
        st.tuples(st.sampled_from(["exp", "sin", "cos", "tanh", "sigmoid"]), children).map(
            lambda p: ("f", p[0], ("*", [("c", S.Fraction(1, 4)), p[1]]))),
    )


@settings(max_examples=150, deadline=None)
@given(st.recursive(_leaves, _extend, max_leaves=8))
def test_derivative_matches_the_complex_step(expr):
    """diff + simplify against the complex-step derivative Im f(x + ih) / h, exact to rounding."""
    at = {"x": np.array([0.3, 1.3]), "y": np.array([0.7, -0.4])}
    with np.errstate(all="ignore"):
        try:
            d = S.simplify(S.diff(expr, "x"))
        except S.GiveUp:
            return
        h = 1e-30
        numeric = np.imag(np.asarray(S.evaluate(expr, {**at, "x": at["x"] + 1j * h}), complex)) / h
        numeric = np.broadcast_to(numeric, (2,))
        exact = np.broadcast_to(np.real(S.evaluate(d, {k: v.astype(complex) for k, v in at.items()})), (2,))
    ok = np.isfinite(numeric) & np.isfinite(exact)
    np.testing.assert_allclose(exact[ok], numeric[ok], rtol=1e-9, atol=1e-9)
    assert isinstance(S.show(d, {"x", "y"}), str)


_PIECES = ["x", "w", "c", "2", "0.5", "1e999", "x.exp()", "torch.sin(w)", "x.mean()", "(x ** 0.5)", "(w ** -1)",
           "torch.log(x)", "x.sum()", "x @ w", "x[0]", "torch.tanh(x)", "x.sigmoid()", "(-w)", "x.sqrt()"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PIECES), st.sampled_from(["+", "-", "*", "/", "**"])), min_size=1,
                max_size=4), st.booleans())
def test_summary_is_safe_on_any_code(terms, reduce):
    """Whatever the statements, the summary either agrees with the engine or is absent; never an error."""
    from gradrepl.lang import Session, run_source
    expr = " ".join(f"{piece} {op}" for piece, op in terms)[:-2]
    source = ("x = torch.tensor([0.5, 2.0], requires_grad=True)\nw = torch.tensor([1.5, -0.5], requires_grad=True)\n"
              f"c = torch.tensor([3.0, 4.0])\ny = {expr}\nout = y.{'mean' if reduce else 'sum'}()")
    session = Session(write=lambda text: None)
    if not run_source(source, session).ok or session.namespace["out"].grad_fn is None:
        return
    ex = _explain(session, "out", source=source)
    assert all(isinstance(line, str) for line in ex.summary)
    if ex.summary:
        assert ex.summary[0].startswith("out = ")


def test_large_gradients_are_summarised_not_kept():
    from gradrepl.lang import Session, run_source
    session = Session(write=lambda text: None)
    run_source("x = torch.ones(100, 50, requires_grad=True)\ny = (x * 2).sum()", session)
    ex = _explain(session, "y")
    assert all(isinstance(s.grad, E.Big) for step in ex.steps for s in step.sends if s.grad is not None)
    assert "(shape [100, 50], 5000 values)" in E.to_text(ex)
    ((_, _, g),) = ex.leaf_grads
    assert g.shape == (100, 50) and np.all(g == 2)


def test_conj_in_rules_only_where_a_value_is_complex():
    """PyTorch's formulas carry conj() for complex tensors; on real ones it is the identity and
    the explained rule reads without it."""
    from gradrepl.lang import Session, run_source
    session = Session()
    run_source("import torch\nx = torch.tensor([1., 2.], requires_grad=True)\nw = torch.tensor([3., 4.])\n"
               "y = torch.dot(x, w)\nz = torch.tensor([1+2j, 3-1j], requires_grad=True)\n"
               "c = torch.dot(z, torch.tensor([2-1j, 1j])).abs()\n", session)
    real = {name: rule for name, rule in _explain(session, "y").steps[0].rules}
    assert real == {"self": "grad * tensor"}
    cplx = {name: rule for name, rule in _explain(session, "c").steps[1].rules}
    assert cplx == {"self": "grad * tensor.conj()"}
