"""The engine's layering (issue 12): no import cycle inside gradrepl/engine, no import of
gradrepl inside a function there (a cycle's usual workaround), and a backward engine
that knows no Tensor class."""
import ast
from pathlib import Path

import gradrepl.engine

ENGINE = Path(gradrepl.engine.__file__).resolve().parent


def _module_name(path):
    rel = path.relative_to(ENGINE.parent.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in ENGINE.rglob("*.py")}


def _module_level(statements):
    """The statements run at import time: the module's, and those of its top-level try
    statements (an optional module: `try: from gradrepl.engine import _kernels`)."""
    out = []
    for node in statements:
        out.append(node)
        if isinstance(node, ast.Try):
            out += _module_level(node.body + node.orelse + node.finalbody
                                 + [s for h in node.handlers for s in h.body])
    return out


def _imports(path):
    """(module imported, at top level?) for every gradrepl import of a file."""
    tree = ast.parse(path.read_text())
    top = set(map(id, _module_level(tree.body)))
    out = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in MODULES else node.module
                     for a in node.names]
        for name in names:
            if name.startswith("gradrepl"):
                out.append((name, id(node) in top))
    return out


def test_no_function_level_gradrepl_imports_in_the_engine():
    late = [(name, target) for name, path in MODULES.items() for target, at_top in _imports(path) if not at_top]
    assert late == []


def test_no_import_cycle_inside_the_engine():
    graph = {name: sorted({t for t, _ in _imports(path) if t in MODULES and t != name}) for name, path in MODULES.items()}
    # a package's __init__ assembling its submodules is not a cycle: a submodule importing
    # its sibling runs the package's __init__ first, which Python resolves in order
    for name in graph:
        graph[name] = [t for t in graph[name] if not (t != "gradrepl.engine" and name.startswith(t + ".")
                                                      or t == "gradrepl.engine")]
    state = {}

    def visit(node, trail):
        if state.get(node) == "done":
            return
        assert state.get(node) != "open", "import cycle: " + " -> ".join(trail + [node])
        state[node] = "open"
        for nxt in graph[node]:
            visit(nxt, trail + [node])
        state[node] = "done"

    for name in graph:
        visit(name, [])


def test_the_backward_engine_knows_no_tensor_class():
    imported = {t for t, _ in _imports(MODULES["gradrepl.engine.autograd"])}
    assert imported <= {"gradrepl.engine.dtypes"}
    assert "Tensor(" not in MODULES["gradrepl.engine.autograd"].read_text()


def test_tensor_py_holds_no_op():
    from gradrepl.engine.ops import REGISTRY
    tree = ast.parse(MODULES["gradrepl.engine.tensor"].read_text())
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor"]
    defined = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    assert {"requires_grad", "grad", "item", "__repr__"} <= defined
    ops = {name for op in REGISTRY.values() for name in (*op.methods, *op.dunders) if op.kind != "tensor"}
    assert defined & ops == set()
