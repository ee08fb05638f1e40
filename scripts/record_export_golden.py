"""Record golden data for `gradrepl export` / `:save` (issue 17) from real PyTorch.

For each tests/data/export/cases/NAME.py (a gradrepl program, shorthand and all) it
writes tests/data/export/expected/NAME.py, the script `gradrepl export` makes of it,
and tests/data/export/expected/NAME.out, what Python with PyTorch prints running that
script (it must exit 0). The tests then check that gradrepl prints NAME.out both for
the case itself (with --keep-going: failing statements are left out of the export)
and for the exported script.

    /work/venv/bin/python scripts/record_export_golden.py [--torch PYTHON] [--check]

Addresses (0x7f...) are written as `0x...`. The project never imports torch; only this
script does, in a separate process.
"""
import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "export"


def export(case: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "gradrepl", "export", str(case)], capture_output=True,
                          text=True, env=env, check=True)
    return done.stdout


def under_torch(python: str, script: str) -> str:
    done = subprocess.run([python, "-"], input=script, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the exported script fails under PyTorch:\n{done.stderr}")
    return re.sub(r"0x[0-9a-fA-F]+", "0x...", done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--torch", default="/work/torchvenv/bin/python", help="a Python with torch installed")
    parser.add_argument("--check", action="store_true", help="report differences, write nothing")
    args = parser.parse_args()
    (DATA / "expected").mkdir(exist_ok=True)
    status = 0
    for case in sorted((DATA / "cases").glob("*.py")):
        script = export(case)
        output = under_torch(args.torch, script)
        for path, text in ((DATA / "expected" / case.name, script),
                           (DATA / "expected" / (case.stem + ".out"), output)):
            if path.exists() and path.read_text(encoding="utf-8") == text:
                continue
            print(f"{path.relative_to(ROOT)}: {'differs' if args.check else 'recorded'}")
            if args.check:
                status = 1
            else:
                path.write_text(text, encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main())
