"""The benchmark workloads run under gradrepl and print what PyTorch prints.

The full workloads take seconds (scripts/bench.py times them and checks their output);
here makemore runs 300 training steps instead of 20,000 (the learning-rate switch at
step 150), against the output recorded from PyTorch 2.13.0+cpu with
`python scripts/bench/torch_oracle.py` on the same shortened text.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "scripts" / "bench"
# This checkout's gradrepl, whatever the working directory.
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))


def run_gradrepl(path, cwd):
    return subprocess.run([sys.executable, "-m", "gradrepl", "run", str(path)], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=120, check=False)


def test_makemore_300_steps_prints_pytorchs_losses(tmp_path):
    text = (BENCH / "makemore.py").read_text(encoding="utf-8")
    assert "range(20000)" in text and "i < 10000" in text
    short = tmp_path / "makemore300.py"
    short.write_text(text.replace("range(20000)", "range(300)").replace("i < 10000", "i < 150"),
                     encoding="utf-8")
    done = run_gradrepl(short, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "28024 24 1.5487 1.3905\n"


def test_small_workloads_print_pytorchs_output():
    expected = json.loads((BENCH / "expected_output.json").read_text(encoding="utf-8"))
    for work in ("empty", "chain", "scalar_ops", "mlp_nn"):
        done = run_gradrepl(BENCH / f"{work}.py", BENCH)
        assert done.returncode == 0, done.stderr
        assert done.stdout == expected[work], work
