"""Record the expected output of every lesson code step from real PyTorch.

Run with the project's venv; it parses lessons/*.md with gradrepl.tutor and runs
each lesson's code steps and reference solutions, in order and in one namespace,
under a PyTorch interpreter with the semantics of script mode (a top-level
expression statement prints its repr; the first error ends the step with a
`Type: message` line). Then it writes each ```output block (default) or only
reports the steps whose recorded text differs (--check). Each reference
solution's resulting state is checked against its ```toml check too, so a
lesson's checks are known to agree with PyTorch.

    /work/venv/bin/python scripts/record_lesson_outputs.py [--torch PYTHON] [--check] [LESSON.md ...]

Addresses (0x7f...) are written as `0x...`, which the lesson checker treats
as a wildcard. The project itself never imports torch; only this script does,
in a separate process.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gradrepl.tutor.check import Observed, check_observed  # noqa: E402
from gradrepl.tutor.expect import matches, normalise  # noqa: E402
from gradrepl.tutor.lesson import Code, Exercise, lessons_dir, load_lesson  # noqa: E402

_TORCH_RUNNER = r'''
import ast, contextlib, io, json, sys, warnings
warnings.simplefilter("ignore")
ns = {"__name__": "__main__"}
exec("import torch\nimport math", ns)
def observe(v):
    if isinstance(v, torch.Tensor):
        g, node = v.grad, v.grad_fn
        return {"kind": "tensor", "values": v.tolist(), "grad": None if g is None else g.tolist(),
                "requires_grad": v.requires_grad, "is_leaf": v.is_leaf,
                "grad_fn": "None" if node is None else node.name(), "shape": list(v.shape),
                "dtype": str(v.dtype)}
    if v is None:
        return {"kind": "none"}
    if isinstance(v, (int, float, bool)):
        return {"kind": "number", "values": float(v)}
    return {"kind": "other"}
torch = ns["torch"]
results = []
for src, names, watched in json.load(sys.stdin):
    counts = {}
    for n in watched:  # backward_runs: count the passes that reach the tensor bound to n now
        t = ns.get(n)
        if isinstance(t, torch.Tensor) and t.requires_grad:
            c = [0]
            counts[n] = (t, c, t.register_hook(lambda g, c=c: c.__setitem__(0, c[0] + 1)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            for node in ast.parse(src).body:
                if isinstance(node, ast.Expr):
                    val = eval(compile(ast.Expression(node.value), "<step>", "eval"), ns)
                    if val is not None:
                        print(repr(val))
                else:
                    exec(compile(ast.Module(body=[node], type_ignores=[]), "<step>", "exec"), ns)
        except Exception as e:
            msg = str(e).splitlines()[0] if str(e) else ""
            print(f"{type(e).__name__}: {msg}")
    runs = {n: c[0] if ns.get(n) is t else None for n, (t, c, h) in counts.items()}
    for t, c, h in counts.values():
        h.remove()
    results.append([out.getvalue(), {n: observe(ns[n]) for n in names if n in ns}, runs])
json.dump(results, sys.stdout)
'''


def run_under_torch(python: str, steps: list[Code | Exercise]) -> list[tuple[str, dict[str, Observed], dict]]:
    """(output, observed state of the checked names, backward_runs counts) after each code step or solution."""
    items = [[s.source, [], []] if isinstance(s, Code) else
             [s.solution, [v.name for v in s.check.variables],
              [v.name for v in s.check.variables if "backward_runs" in dict(v.expect)]]
             for s in steps]
    proc = subprocess.run([python, "-c", _TORCH_RUNNER], input=json.dumps(items),
                          capture_output=True, text=True, check=True)
    return [(re.sub(r"0x[0-9a-fA-F]+", "0x...", text),
             {name: Observed(**{k: tuple(v) if k == "shape" else v for k, v in seen.items()})
              for name, seen in state.items()}, runs)
            for text, state, runs in json.loads(proc.stdout)]


def _fence_end(lines: list[str], start: int) -> int:
    """Index of the closing ``` line of the fence opening at lines[start]."""
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("```"):
            return i
    raise ValueError(f"unclosed fence at line {start + 1}")


def rewrite(text: str, recorded: dict[int, str]) -> str:
    """Put recorded[line] into the ```output block after the code fence at `line` (1-based)."""
    lines = text.split("\n")
    for line in sorted(recorded, reverse=True):
        end = _fence_end(lines, line - 1)
        after = end + 1
        while after < len(lines) and not lines[after].strip():
            after += 1
        block = ["```output", *normalise(recorded[line]).split("\n"), "```"] if recorded[line].strip() else []
        if after < len(lines) and lines[after].strip() == "```output":
            old_end = _fence_end(lines, after)
            lines[end + 1:old_end + 1] = [""] + block if block else []
        elif block:
            lines[end + 1:end + 1] = ["", *block]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--torch", default="/work/torchvenv/bin/python", help="a Python with torch installed")
    parser.add_argument("--check", action="store_true", help="report differences, write nothing")
    parser.add_argument("lessons", nargs="*", type=Path)
    args = parser.parse_args()
    paths = args.lessons or sorted(lessons_dir().glob("[0-9]*.md"))
    status = 0
    for path in paths:
        lesson = load_lesson(path)
        runnable = [s for s in lesson.steps if isinstance(s, Code | Exercise)]
        recorded = {}
        for step, (out, state, runs) in zip(runnable, run_under_torch(args.torch, runnable)):
            if isinstance(step, Code):
                if not matches(step.expected, out):
                    recorded[step.line] = out
                    print(f"{path}:{step.line}: output {'differs' if args.check else 'recorded'}")
            else:
                if out.strip():
                    print(f"{path}:{step.line}: solution printed (under PyTorch):\n{out}")
                for failure in check_observed(step.check, state, runs).failures:
                    print(f"{path}:{step.line}: under PyTorch the solution fails its check: "
                          f"{failure.for_author()}")
                    status = 1
        if recorded and args.check:
            status = 1
        elif recorded:
            path.write_text(rewrite(path.read_text(encoding="utf-8"), recorded), encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
