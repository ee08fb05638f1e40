"""Record golden stdout / error line / exit status of case files from real PyTorch.

Runs each CASE.py with Python-REPL echo semantics (each top-level statement in order;
an expression statement's value, when not None, printed with repr; on an exception
'Type: message' to stderr and exit 1) and writes CASE.out, CASE.err, CASE.rc beside it.

Usage (in a scratch venv with `pip install torch==2.13.0`, outside the repo):
    python scripts/record_cases.py tests/data/engine_cases
"""
import ast
import contextlib
import io
import os
import subprocess
import sys

ORACLE = r'''
import ast, sys, warnings
warnings.simplefilter("ignore")
path = sys.argv[1]
tree = ast.parse(open(path, encoding="utf-8").read(), path)
ns = {"__name__": "__main__"}
exec("import torch\nimport math", ns)
for node in tree.body:
    try:
        if isinstance(node, ast.Expr):
            val = eval(compile(ast.Expression(node.value), path, "eval"), ns)
            if val is not None:
                print(repr(val))
        else:
            exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), ns)
    except Exception as e:
        sys.stdout.flush()
        msg = str(e).splitlines()[0] if str(e) else ""
        name = type(e).__name__
        if type(e).__module__.startswith("numpy."):      # as Python's traceback names them
            name = f"{type(e).__module__}.{type(e).__qualname__}"
        print(f"{name}: {msg}", file=sys.stderr)
        sys.exit(1)
'''


def record(path):
    p = subprocess.run([sys.executable, "-c", ORACLE, path], capture_output=True, text=True)
    base = path[:-3]
    with open(base + ".out", "w") as f:
        f.write(p.stdout)
    with open(base + ".err", "w") as f:
        f.write(p.stderr.strip().splitlines()[-1] + "\n" if p.stderr.strip() else "")
    with open(base + ".rc", "w") as f:
        f.write(f"{p.returncode}\n")
    return p.returncode


def main(argv):
    for d in argv:
        for name in sorted(os.listdir(d)):
            if name.endswith(".py"):
                rc = record(os.path.join(d, name))
                print(f"{name}: rc={rc}")


if __name__ == "__main__":
    main(sys.argv[1:])
