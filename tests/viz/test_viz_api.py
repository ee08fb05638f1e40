"""The functions the REPL's :graph, :explain, :gradcheck and :jacobian call."""
import io

import pytest
from viz_cases import run_case
from rich.console import Console
from rich.tree import Tree

import gradrepl.viz as viz


def _show(renderable, width=80):
    out = io.StringIO()
    Console(file=out, width=width, no_color=True).print(renderable)
    return out.getvalue()


def test_graph_text_dot_mermaid():
    session = run_case("004_out")
    tree = viz.repl_graph(session, "out", width=60)
    assert isinstance(tree, Tree)
    assert max(len(line) for line in _show(tree, 60).splitlines()) <= 60
    assert viz.repl_graph(session, "out", fmt="dot").startswith("digraph autograd {")
    assert viz.repl_graph(session, "out", fmt="mermaid").startswith("graph BT;")
    with pytest.raises(viz.VizError, match="unknown graph format"):
        viz.repl_graph(session, "out", fmt="gif")


def test_save_graph_by_suffix(tmp_path):
    session = run_case("004_out")
    path = viz.save_graph(session, "out", tmp_path / "out.dot")
    assert open(path).read().startswith("digraph")
    with pytest.raises(viz.VizError, match="cannot tell the format"):
        viz.save_graph(session, "out", tmp_path / "out.gif")


def test_explain_uses_the_sessions_statements_for_the_summary():
    session = run_case("004_out")
    text = _show(viz.repl_explain(session, "out", width=100), 100)
    assert "d out / d x_i = 3/2 (x_i + 2)" in text
    assert session.namespace["x"].grad is None


def test_gradcheck_and_jacobian():
    session = run_case("004_out")
    assert viz.gradcheck_result(session, "out").ok
    assert "passed" in _show(viz.repl_gradcheck(session, "out", width=80))
    session = run_case("001_jacobian")
    assert "[2., 6.]" in _show(viz.repl_jacobian(session, "y", "x", width=80))


@pytest.mark.parametrize("name, message", [
    ("zz", "name 'zz' is not defined"),
    ("outt", "did you mean 'out'"),
    ("torch", "torch is not a tensor"),
    ("__class__", "is not defined"),
])
def test_names_are_checked(name, message):
    session = run_case("004_out")
    with pytest.raises(viz.VizError, match=message):
        viz.repl_graph(session, name)
