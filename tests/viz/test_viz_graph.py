"""The graph model against PyTorch's own graphs of the documents' examples, and the renderers."""
import os
import shutil
import subprocess

import numpy as np
import pytest
from viz_cases import DATA, GOLDEN, case_header, run_case
from hypothesis import given, settings
from hypothesis import strategies as st
from viz_dot_parser import parse

from gradrepl.viz import graph as G

EXPECTED = DATA / "expected"
DOC_CASES = [c for c in GOLDEN if not c.startswith("loop")]


def _graph(case, collapse=True):
    session = run_case(case)
    root, _ = case_header(case)
    return G.build_graph(session.namespace[root], G.Names(session.namespace), root_name=root, collapse=collapse)


def _structure(graph):
    """The grad_fn nodes of the model with their inputs, tensor nodes passed through, like the golden."""
    children = graph.children()
    order = [nid for nid, n in graph.nodes.items() if n.kind in ("op", "acc")]
    index = {nid: i for i, nid in enumerate(order)}

    def through(nid):
        while graph.nodes[nid].kind == "tensor":
            (edge,) = children[nid]
            nid = edge.dst
        return nid

    out = []
    for nid in order:
        node = graph.nodes[nid]
        inputs = [(e.index, index[through(e.dst)]) for e in children[nid] if graph.nodes[e.dst].kind != "leaf"]
        inputs += [(k, None) for k, _ in graph.missing.get(nid, ())]
        leaf = [graph.nodes[e.dst].title for e in children[nid] if graph.nodes[e.dst].kind == "leaf"]
        out.append([node.title, [i for _, i in sorted(inputs, key=lambda p: p[0])], leaf])
    return out


def _golden_structure(case):
    return [[name.removeprefix("torch::autograd::"), [c for c, _ in edges], [" = ".join(leaf)] if name.endswith(
        "AccumulateGrad") else []] for name, edges, leaf in GOLDEN[case]["nodes"]]


def test_graph_matches_pytorch(case):
    assert _structure(_graph(case, collapse=False)) == _golden_structure(case)


def test_004_graph_names_the_session_variables():
    graph = _graph("004_out")
    kinds = [(n.kind, n.title) for n in graph.nodes.values()]
    assert kinds == [("tensor", "out"), ("op", "MeanBackward0"), ("tensor", "z"), ("op", "MulBackward0"),
                     ("op", "MulBackward0"), ("tensor", "y"), ("op", "AddBackward0"), ("acc", "AccumulateGrad"),
                     ("leaf", "x")]
    leaf = graph.nodes["n8"]
    assert leaf.details == ("[2, 2]", "float32", "requires_grad=True", "value [[1., 1.], [1., 1.]]")
    y_uses = [e.label for e in graph.edges if e.dst == "n5"]
    assert y_uses == ["self", "other"]     # y * y: both inputs, in order


def test_grad_shown_once_backward_ran():
    from gradrepl.lang import run_source
    session = run_case("001_wxb")
    run_source("z.backward(retain_graph=True)", session)
    graph = G.build_graph(session.namespace["z"], G.Names(session.namespace), root_name="z")
    w = next(n for n in graph.nodes.values() if n.title == "w")
    assert "grad [2.]" in w.details


def test_same_graph_same_text():
    assert G.to_dot(_graph("001_jacobian")) == G.to_dot(_graph("001_jacobian"))
    assert G.to_text(_graph("004_out")) == G.to_text(_graph("004_out"))


@pytest.mark.parametrize("case", DOC_CASES + ["loop_1000"])
@pytest.mark.parametrize("fmt", ["txt", "dot", "mmd"])
def test_golden_renderings(case, fmt):
    graph = _graph(case)
    text = {"txt": lambda: G.to_text(graph, width=100), "dot": lambda: G.to_dot(graph),
            "mmd": lambda: G.to_mermaid(graph)}[fmt]()
    path = EXPECTED / f"{case}.{fmt}"
    if os.environ.get("GRADREPL_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", DOC_CASES + ["loop_1000"])
def test_dot_is_valid_and_complete(case):
    graph = _graph(case)
    dot = parse(G.to_dot(graph))
    assert set(graph.nodes) <= set(dot.nodes)
    declared = set(dot.nodes)
    assert all(src in declared and dst in declared for src, dst, _ in dot.edges)
    drawn = [(s, d) for s, d, a in dot.edges if a.get("style") != "dotted"]
    assert drawn == [(e.src, e.dst) for e in graph.edges]
    assert dot.nodes["n0"]["label"].split("\\n")[0] == case_header(case)[0]


def test_dot_parser_rejects_broken_text():
    with pytest.raises(ValueError):
        parse('digraph g { a -> ; }')
    with pytest.raises(ValueError):
        parse('digraph g { a [label="x] }')


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
@pytest.mark.parametrize("case", ["001_jacobian", "loop_1000"])
def test_graphviz_accepts_the_dot(case):
    done = subprocess.run(["dot", "-Tsvg"], input=G.to_dot(_graph(case)).encode(), capture_output=True)
    assert done.returncode == 0, done.stderr
    assert b"<svg" in done.stdout
    assert b"<svg" in G.render_image(G.to_dot(_graph(case)), "svg")


def test_missing_graphviz_names_the_package(monkeypatch):
    monkeypatch.setattr(G.shutil, "which", lambda name: None)
    with pytest.raises(G.VizError, match="Debian package `graphviz`"):
        G.render_image("digraph g {}", "svg")


def test_mermaid_draws_001s_graph():
    """001 draws z = wx + b as `graph BT` from dz through addBackward to db and dy."""
    text = G.to_mermaid(_graph("001_wxb"))
    assert text.splitlines()[0] == "graph BT;"
    edges = [line for line in text.splitlines() if "-->" in line]
    titles = {line.split("[")[0].split("((")[0]: line for line in text.splitlines() if "-->" not in line}
    assert edges == ["n0-->n1", "n1-->n2", "n1-->n6", "n2-->n3", "n3-->n4", "n4-->n5", "n6-->n7"]
    assert "AddBackward0" in titles["n1"] and "DotBackward0" in titles["n3"]
    assert titles["n2"].startswith('n2(("y<br/>')       # 001's dy: y is a session variable
    assert '"w<br/>' in titles["n5"] and '"b<br/>' in titles["n7"]


def test_loop_collapsed_with_its_count():
    full, small = _graph("loop_1000", collapse=False), _graph("loop_1000")
    assert len(full.nodes) > 2000
    assert len(small.nodes) < 12
    (group,) = small.groups
    assert group.count == 1000 and group.hidden == 1998
    assert [small.nodes[m].title for m in group.members] == ["AddBackward0", "MulBackward0"]
    assert len(G.to_text(small).splitlines()) < 15


def test_collapse_keeps_a_named_step_and_short_runs():
    from gradrepl.lang import Session, run_source
    session = Session(write=lambda text: None)
    run_source("x = torch.ones(2, requires_grad=True)\ny = x * 2\ny = y * 2\ny = y * 2\nmid = y\n"
               "y = y * 2\ny = y * 2\ny = y * 2\ny = y * 2\ny = y * 2\n", session)
    graph = G.build_graph(session.namespace["y"], G.Names(session.namespace), root_name="y")
    (group,) = graph.groups          # the five after `mid` collapse; the three before it do not
    assert group.count == 5
    assert any(n.title == "mid" for n in graph.nodes.values())
    assert sum(n.title == "MulBackward0" for n in graph.nodes.values()) == 4


def test_deep_chain_without_recursion():
    from gradrepl.engine.tensor import wrap
    x = wrap(G.tensor_array(wrap([1.0]))).requires_grad_(True)
    y = x
    for _ in range(20000):
        y = y * 1.0001
    graph = G.build_graph(y, root_name="y")
    # the first multiplication feeds AccumulateGrad, not another MulBackward0: drawn on its own
    assert graph.groups[0].count == 19999
    assert [n.title for n in graph.nodes.values()] == ["y", "MulBackward0", "MulBackward0", "AccumulateGrad",
                                                       "(unnamed leaf)"]
    assert "⟳" in G.to_text(graph)


def test_no_graph_for_a_plain_tensor():
    from gradrepl.engine.tensor import wrap
    with pytest.raises(G.VizError, match="requires_grad=False"):
        G.build_graph(wrap([1.0]), root_name="c")


def test_leaf_root_is_one_node():
    from gradrepl.engine.tensor import wrap
    graph = G.build_graph(wrap([1.0]).requires_grad_(True), root_name="w")
    assert [(n.kind, n.title) for n in graph.nodes.values()] == [("leaf", "w")]


def test_list_inputs_are_indexed():
    from gradrepl.lang import Session, run_source
    session = Session(write=lambda text: None)
    run_source("x = torch.ones(2, requires_grad=True)\na, b = x.unbind()\nw = torch.stack([a * 2, b]).sum()",
               session)
    text = G.to_text(G.build_graph(session.namespace["w"], G.Names(session.namespace), root_name="w"))
    assert "tensors[0]: MulBackward0" in text and "tensors[1]: b" in text
    assert "UnbindBackward0 #5 (shown above)" in text


_STEPS = {"add": lambda y, x: y + 1, "mul": lambda y, x: y * x, "sin": lambda y, x: y.sin(),
          "twice": lambda y, x: y * 2}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(_STEPS)), max_size=4), st.lists(st.sampled_from(sorted(_STEPS)),
       min_size=1, max_size=3), st.integers(1, 9), st.lists(st.sampled_from(sorted(_STEPS)), max_size=4))
def test_collapsing_hides_only_repetitions(prefix, pattern, repeats, suffix):
    from gradrepl.engine.tensor import wrap
    x = wrap(np.array([0.5, -0.25], np.float32)).requires_grad_(True)
    y = x * 1
    for step in prefix + pattern * repeats + suffix:
        y = _STEPS[step](y, x)
    small = _check_collapse(y)
    if repeats >= G.COLLAPSE_MIN:
        assert small.groups


def _check_collapse(y):
    """Every node not drawn is a copy of a drawn group member; returns the collapsed graph."""
    from collections import Counter
    full, small = G.build_graph(y, root_name="y", collapse=False), G.build_graph(y, root_name="y")
    assert len(full.nodes) == len(small.nodes) + sum(g.hidden for g in small.groups)
    expected = Counter(n.title for n in small.nodes.values())
    for g in small.groups:
        assert g.count >= G.COLLAPSE_MIN
        for _ in range(g.count - 1):
            expected.update(small.nodes[m].title for m in g.members)
    assert Counter(n.title for n in full.nodes.values()) == expected
    parse(G.to_dot(small))
    return small


def test_alike_inputs_collapsed():
    from gradrepl.engine.tensor import wrap
    x = wrap(np.arange(300, dtype=np.float32)).requires_grad_(True)
    parts = [x[i] * 2 for i in range(300)]
    from gradrepl.engine.ops import shape as F
    stacked = F.stack(parts[:150] + [x[0].sin()] + parts[150:])
    graph = _check_collapse(stacked)
    assert sorted(g.count for g in graph.groups) == [150, 150]
    text = G.to_text(graph)
    assert "tensors[0] .. tensors[149]: MulBackward0  ⟳ ×150 inputs like this one" in text
    assert "tensors[150]: SinBackward0" in text
    assert len(text.splitlines()) < 20
