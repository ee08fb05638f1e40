""":gradcheck and :jacobian: correct rules pass, a wrong rule fails, the session is untouched."""
import numpy as np
import pytest
from viz_cases import case_header, case_source, run_case
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.engine import functions as F
from gradrepl.engine.ops.registry import SPECS
from gradrepl.viz import gradcheck as GC
from gradrepl.viz.graph import VizError, tensor_array


def _check(case, rng_state=None):
    root, vector = case_header(case)
    session = run_case(case)
    ns = session.namespace
    return GC.gradcheck_source(case_source(case), ns, root, vector=None if vector is None else ns[vector],
                               rng_state=rng_state)


@pytest.mark.parametrize("case", ["004_out", "001_no_detach", "000_fn", "000_square", "004_sum",
                                  "001_wxb", "001_jacobian"])
def test_correct_rules_pass(case):
    res = _check(case)
    assert res.ok, [(c.name, c.max_abs, c.max_rel) for c in res.leaves]
    assert res.leaves and all(c.max_abs < 1e-2 for c in res.leaves)


def test_detach_is_reported_as_a_difference_from_the_function():
    """001: with y detached, autograd gives x.grad = y = 4 where the function's derivative is 3x^2 + 3 = 6."""
    res = _check("001_detach")
    (leaf,) = res.leaves
    assert not res.ok
    np.testing.assert_allclose(leaf.analytic, [4.0, 4.0])
    np.testing.assert_allclose(leaf.numeric, [6.0, 6.0], rtol=1e-6)


def test_dtype_sensitive_code_keeps_its_dtype():
    res = _check("001_wxb")       # matmul needs equal dtypes: float64 leaves would fail there
    assert res.ok and res.eps == 1e-3
    assert any("own dtype" in note for note in res.notes)


def test_004_checked_in_float64():
    res = _check("004_out")
    (leaf,) = res.leaves
    assert leaf.name == "x" and res.eps == 1e-6 and not res.notes
    np.testing.assert_allclose(leaf.analytic, 4.5, rtol=0, atol=1e-12)     # float64 all the way
    assert leaf.max_abs < 1e-7


def test_a_wrong_derivative_rule_fails(monkeypatch):
    for spec in [s for s in SPECS.values() if s.name == "MulBackward0"]:   # tensor * tensor and * a number
        def off_by_ten_percent(g, node, xp, right=spec.backward):
            return tuple(None if r is None else r * 1.1 for r in right(g, node, xp))

        monkeypatch.setattr(spec, "backward", off_by_ten_percent)
    res = _check("004_out")
    assert not res.ok
    (leaf,) = res.leaves
    assert leaf.max_rel == pytest.approx(1.1 * 1.1 - 1, rel=1e-6)   # two multiplications on the path


def test_a_wrong_rule_elsewhere_is_not_blamed_on_correct_code(monkeypatch):
    monkeypatch.setattr(SPECS["ExpBackward0"], "backward", lambda g, node, xp: (g * 0,))
    assert _check("004_out").ok
    assert not _check("000_fn").ok


def test_random_draws_rerun_identically_from_the_start_state():
    from gradrepl.lang import Session, run_source
    source = "x = torch.randn(3, requires_grad=True)\nw = torch.randn(3)\nout = (x * w).sum()"
    start = F.get_rng_state()
    session = Session(write=lambda text: None)
    run_source(source, session)
    after = tensor_array(F.get_rng_state()).copy()
    res = GC.gradcheck_source(source, session.namespace, "out", rng_state=start)
    assert res.ok
    assert np.array_equal(tensor_array(F.get_rng_state()), after)      # the learner's stream goes on unchanged
    with pytest.raises(VizError, match="does not reproduce"):
        GC.gradcheck_source(source, session.namespace, "out")          # start state unknown


def test_learners_values_and_grads_untouched():
    session = run_case("004_out")
    ns = session.namespace
    x = ns["x"]
    GC.gradcheck_source(case_source("004_out"), ns, "out")
    assert ns["x"] is x and x.grad is None and tensor_array(x).dtype == np.float32


def test_leaves_made_in_a_loop_cannot_be_varied():
    from gradrepl.lang import Session, run_source
    source = "for i in range(1):\n    x = torch.ones(2, requires_grad=True)\n    out = (x * x).sum()"
    session = Session(write=lambda text: None)
    run_source(source, session)
    with pytest.raises(VizError, match="cannot vary x"):
        GC.gradcheck_source(source, session.namespace, "out")


def test_too_many_elements_is_refused():
    from gradrepl.lang import Session, run_source
    source = "x = torch.ones(500, requires_grad=True)\nout = x.sum()"
    session = Session(write=lambda text: None)
    run_source(source, session)
    with pytest.raises(VizError, match="reruns"):
        GC.gradcheck_source(source, session.namespace, "out")


def test_jacobian_like_001():
    session = run_case("001_jacobian")
    ns = session.namespace
    rows = GC.jacobian_rows(ns["y"], ns["x"], "y", "x")
    assert rows.tolist() == [[4.0, 3.0], [2.0, 6.0]]
    assert ns["x"].grad is None
    from rich.console import Console
    console = Console(width=100, record=True, file=open("/dev/null", "w"))
    console.print(GC.jacobian_renderable(rows, "y", "x"))
    assert "tensor([[4., 3.],\n        [2., 6.]])" in console.export_text()


def test_jacobian_of_a_tensor_without_grad():
    session = run_case("001_jacobian")
    ns = session.namespace
    with pytest.raises(VizError, match="does not require grad"):
        GC.jacobian_rows(ns["y"], ns["j"], "y", "j")


_UNARY = ["({}).sin()", "({}).tanh()", "({}).sigmoid()", "({} * 0.5).exp()", "({} ** 2)", "(-{})", "({}).abs()"]
_BINARY = ["({} + {})", "({} - {})", "({} * {})", "({} / ({}.abs() + 1))"]


def _expressions():
    leaves = st.sampled_from(["x", "w", "c"])
    return st.recursive(leaves, lambda inner: st.one_of(
        st.tuples(st.sampled_from(_UNARY), inner).map(lambda p: p[0].format(p[1])),
        st.tuples(st.sampled_from(_BINARY), inner, inner).map(lambda p: p[0].format(p[1], p[2], p[2]))),
        max_leaves=6)


@settings(max_examples=8, deadline=None, derandomize=True)   # the same examples in every run: CI stays stable
@given(_expressions())
def test_random_expressions_pass(expr):
    from gradrepl.lang import Session, run_source
    source = (f"x = torch.tensor([0.3, -0.7], requires_grad=True)\nw = torch.tensor([1.1, 0.4], requires_grad=True)\n"
              f"c = torch.tensor([1.5, -2.0])\nout = ({expr} * x * w).sum()")
    session = Session(write=lambda text: None)
    assert run_source(source, session).ok
    res = GC.gradcheck_source(source, session.namespace, "out")
    assert res.ok, (expr, [(c.name, c.analytic, c.numeric) for c in res.leaves])


def test_slow_statements_are_refused_before_the_reruns(monkeypatch):
    monkeypatch.setattr(GC, "MAX_SECONDS", 0)
    session = run_case("004_out")
    with pytest.raises(VizError, match=r"9 reruns of the statements, about"):
        GC.gradcheck_source(case_source("004_out"), session.namespace, "out")
