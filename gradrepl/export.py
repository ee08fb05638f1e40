"""The way out to real PyTorch: a session's statements as a script for Python with torch.

`to_pytorch(transcript)` takes what ran without error (gradrepl.lang's Session.transcript:
each statement's exact source and how its value was echoed) and writes a script that
prints what the session printed when run by Python with PyTorch 2.13:

- gradrepl's shorthand is expanded: a bare `exp(x)`, `tensor([...])`, `ones(2)` that
  refers to torch (not to a name of the learner's) becomes `torch.exp(x)` ...;
- `import torch` (and `import math` when used) is added at the top;
- a top-level expression whose value the session echoed is printed (`print(x.grad)`,
  `print(repr(s))` for a string), since Python does not echo in a script; when a later
  statement reads `_` (the last result at the prompt) the value is bound to `_` first;
- `help(...)` and `dir(...)` at the top level (gradrepl's own short texts) are left out.

Failed or refused statements never reach the transcript, so they are left out too.
`gradrepl export FILE [-o OUT]` runs FILE as `run --keep-going` does (its output on
stderr) and writes the script to OUT or standard output. `:save FILE` writes the
REPL session's script.
"""
import ast
import sys

from gradrepl.lang.policy import BARE_TORCH, BUILTIN_NAMES

_SHORTHAND = []


def shorthand():
    """The bare names that mean torch.NAME: policy's creation names and every op the
    engine declares bare (read once, when a transcript is exported)."""
    if not _SHORTHAND:
        from gradrepl.engine.api import BARE_OPS
        _SHORTHAND.append(frozenset(name for name in (*BARE_TORCH, *BARE_OPS)
                                    if name not in BUILTIN_NAMES))
    return _SHORTHAND[0]
_LEFT_OUT = ("help", "dir")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _stored(node):
    """Names a statement (or a module) binds, not looking into the scopes it creates."""
    names = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
            stack.extend(n.decorator_list)
            continue
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
        elif isinstance(n, ast.arg):
            names.add(n.arg)
        if isinstance(n, _SCOPES):
            if isinstance(n, ast.Lambda):
                stack.extend(n.args.defaults)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return names


def _local_names(scope):
    names = set()
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = scope.args
        names.update(x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x)
        body = scope.body if isinstance(scope.body, list) else [scope.body]
    elif isinstance(scope, ast.ClassDef):
        body = scope.body
    else:                                           # comprehensions: their targets
        body = []
        for gen in scope.generators:
            names |= _stored(gen.target)
    for stmt in body:
        names |= _stored(stmt)
    return names


class _Loads(ast.NodeVisitor):
    """Name loads that are free at the top level, with the scopes they sit in."""

    def __init__(self, bound):
        self.scopes = [bound]
        self.free = []          # ast.Name nodes

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and not any(node.id in s for s in self.scopes):
            self.free.append(node)

    def _scope(self, node):
        # defaults and decorators belong to the enclosing scope
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for d in [*node.args.defaults, *[d for d in node.args.kw_defaults if d is not None]]:
                self.visit(d)
        for d in getattr(node, "decorator_list", []):
            self.visit(d)
        if isinstance(node, ast.ClassDef):
            for b in [*node.bases, *[k.value for k in node.keywords]]:
                self.visit(b)
        self.scopes.append(_local_names(node))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
        elif isinstance(node, ast.Lambda):
            body = [node.body]
        else:
            body = [*[x for g in node.generators for x in (g.iter, *g.ifs)],
                    *([node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt])]
        for child in body:
            self.visit(child)
        self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = _scope
    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _scope


def _insert(source, edits):
    """Insert text at (line, byte column) positions of source (ast columns are UTF-8 bytes)."""
    lines = source.split("\n")
    by_line = {}
    for line, col, text in edits:
        by_line.setdefault(line, []).append((col, text))
    for line, inserts in by_line.items():
        raw = lines[line - 1].encode()
        for col, text in sorted(inserts, reverse=True):
            raw = raw[:col] + text.encode() + raw[col:]
        lines[line - 1] = raw.decode()
    return "\n".join(lines)


def shorthand_uses(source, bound=()):
    """The bare torch names (`exp`, `tensor`) a statement uses as gradrepl's shorthand, given
    the names the learner has bound (a learner's own `exp` is not shorthand)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    finder = _Loads(set(bound))
    finder.visit(tree)
    return list(dict.fromkeys(n.id for n in finder.free if n.id in shorthand()))


def _is_call_to(node, names):
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name) and node.value.func.id in names)


def to_pytorch(transcript) -> str:
    """The script (see the module docstring); transcript: [(source, echo)] or Ran objects."""
    entries = [(getattr(e, "source", None) or e[0], getattr(e, "echo", None) if hasattr(e, "echo")
                else e[1]) for e in transcript]
    parsed = []
    for source, echo in entries:
        try:
            parsed.append((source, echo, ast.parse(source)))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue                               # cannot happen for statements that ran
    bound = set()
    needs = {"torch": False, "math": False}
    reads_last = False
    out = []
    for source, echo, tree in parsed:
        node = tree.body[0] if len(tree.body) == 1 else None
        if node is not None and _is_call_to(node, _LEFT_OUT) and node.value.func.id not in bound:
            continue
        finder = _Loads(set(bound))
        finder.visit(tree)
        edits = []
        for name in finder.free:
            if name.id in shorthand():
                edits.append((name.lineno, name.col_offset, "torch."))
                needs["torch"] = True
            elif name.id in needs:
                needs[name.id] = True
            elif name.id == "_":
                reads_last = True
        text = _insert(source, edits).rstrip()
        if echo is not None and node is not None and isinstance(node, ast.Expr) \
                and isinstance(node.value, ast.Tuple) and not text.startswith("("):
            text = f"({text})"                     # `w, b` echoes one tuple: print((w, b))
        spaced = node is not None and isinstance(node, (ast.FunctionDef, ast.ClassDef))
        out.append((text, echo, spaced))
        bound |= _stored(tree)
    lines = []
    if not _first_imports(parsed, "torch"):
        lines.append("import torch")
    if needs["math"] and "math" not in bound:
        lines.append("import math")
    after_def = False
    for text, echo, spaced in out:
        if (spaced or after_def) and lines and lines[-1] != "":
            lines.append("")                 # a def or class stands apart, as PEP 8 writes it
        after_def = spaced
        if echo is None:
            lines.append(text)
            continue
        shown = "_" if reads_last else text
        if reads_last:
            lines.append(f"_ = {text}")
        lines.append(f"print({shown})" if echo == "print" else f"print(repr({shown}))")
    return "\n".join(lines) + "\n"


def _first_imports(parsed, module):
    """Does the first statement import `module` under its own name?"""
    if not parsed:
        return False
    tree = parsed[0][2]
    return bool(tree.body) and isinstance(tree.body[0], ast.Import) and any(
        a.name == module and a.asname is None for a in tree.body[0].names)


# --- gradrepl export FILE ------------------------------------------------------------------

def main(args) -> int:
    """`gradrepl export FILE [-o OUT]` (gradrepl/cli.py hands over the arguments after `export`)."""
    import argparse

    from gradrepl.usage import EXIT_OK, EXIT_USAGE, EXIT_USER, Parser as _Parser, \
        UsageError as _UsageError
    from gradrepl.limits import FLAGS, Limits

    parser = _Parser(prog="gradrepl export",
                     description="Run FILE (a gradrepl script, shorthand and all), then write the "
                     "statements that ran as a script for Python with PyTorch 2.13: shorthand "
                     "expanded, `import torch` added, echoed values printed, failing statements "
                     "left out. The file's own output goes to standard error.",
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="the gradrepl script ('-' for standard input)")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="write the script to OUT (default: standard output)")
    try:
        opts = parser.parse_args(args)
    except _UsageError:
        return EXIT_USAGE
    try:
        if opts.file == "-":
            text = sys.stdin.read()
        else:
            with open(opts.file, encoding="utf-8-sig") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        print(f"gradrepl export: cannot read '{opts.file}': {reason}", file=sys.stderr)
        return EXIT_USAGE
    from gradrepl.lang import Session, run_source

    session = Session(limits=Limits.open_ended(**FLAGS), write=sys.stderr.write)
    session.report = lambda error: print(error.format(), file=sys.stderr, flush=True)
    session.warn = lambda category, message: print(f"{category}: {message}", file=sys.stderr)
    name = "<stdin>" if opts.file == "-" else opts.file
    result = run_source(text, session, filename=name, trusted=False, keep_going=True)
    if result.syntax_error:
        return EXIT_USER
    script = to_pytorch(session.transcript)
    left_out = len(result.errors)
    if opts.output:
        try:
            with open(opts.output, "w", encoding="utf-8") as f:
                f.write(script)
        except OSError as e:
            print(f"gradrepl export: cannot write '{opts.output}': {e.strerror or e}", file=sys.stderr)
            return EXIT_USAGE
        print(f"wrote {opts.output}" + (f" ({left_out} failing statements left out)" if left_out else ""),
              file=sys.stderr)
    else:
        sys.stdout.write(script)
        if left_out:
            print(f"gradrepl export: {left_out} failing statements left out", file=sys.stderr)
    return EXIT_OK
