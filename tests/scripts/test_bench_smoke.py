"""scripts/bench.py starts and documents its options (the benchmark itself is run by hand)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_help_lists_options_and_workloads():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    for option in ("--runs", "--only", "--torch-python", "--json", "--render", "--profile"):
        assert option in done.stdout
    for work in ("empty", "mlp", "chain", "scalar_ops"):
        assert work in done.stdout
        assert (ROOT / "scripts" / "bench" / f"{work}.py").is_file()
