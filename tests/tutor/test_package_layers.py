"""The subpackages of gradrepl depend on each other in one direction (no import cycle).

Every import in every module counts, also the lazy ones inside functions: a cycle hidden
behind a function-level import is still a cycle (issue 12: repl/ <-> tutor/ went through
tutor/cli.py and repl/meta.py).
"""
import ast
from pathlib import Path

import gradrepl

ROOT = Path(gradrepl.__file__).parent


def package_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "gradrepl" and len(parts) > 1 else None


def package_edges(root: Path = ROOT) -> dict[str, set[str]]:
    """{subpackage or top-level module: the other ones it imports anywhere in its code}."""
    edges: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).parts
        here = rel[0] if len(rel) > 1 else rel[0].removesuffix(".py")
        targets = edges.setdefault(here, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names
                                         if node.module == "gradrepl"]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                package = package_of(name)
                if package is not None and package != here:
                    targets.add(package)
    return edges


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a list of packages (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if state.get(nxt) is None:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if state.get(node) is None:
            found = visit(node)
            if found:
                return found
    return None


def test_the_tutor_never_imports_the_repl():
    edges = package_edges()
    assert "repl" not in edges["tutor"]
    assert "tutor" in edges["repl"]            # the direction: the REPL front drives the tutor


def test_no_import_cycle_between_subpackages_or_top_level_modules():
    assert find_cycle(package_edges()) is None


# The front-end layers in the direction issue 12 asks for: repl -> tutor -> viz -> engine.
LAYERS = ("repl", "tutor", "viz", "engine")


def test_the_front_end_layers_point_one_way():
    edges = package_edges()
    layered = {p: edges.get(p, set()) & set(LAYERS) for p in LAYERS}
    assert find_cycle(layered) is None
    assert "tutor" in layered["repl"] and "viz" in layered["tutor"]


def test_the_cycle_finder_finds_a_cycle(tmp_path):
    for package, imports in {"repl": "from gradrepl.tutor import x",
                             "tutor": "def f():\n    from gradrepl.repl.meta import y\n"}.items():
        (tmp_path / package).mkdir()
        (tmp_path / package / "m.py").write_text(imports + "\n")
    edges = package_edges(tmp_path)
    assert edges == {"repl": {"tutor"}, "tutor": {"repl"}}
    assert find_cycle(edges) == ["repl", "tutor", "repl"]
