"""scripts/bench.py starts and documents its options (the benchmark itself is run by hand)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_help_lists_options_and_workloads():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    for option in ("--runs", "--only", "--torch-python", "--json", "--render", "--profile",
                   "--tuned", "--both", "--per-op"):
        assert option in done.stdout
    for work in ("empty", "mlp", "chain", "scalar_ops", "makemore"):
        assert work in done.stdout
        assert (ROOT / "scripts" / "bench" / f"{work}.py").is_file()


def test_expected_output_names_every_workload():
    import json
    expected = json.loads((ROOT / "scripts" / "bench" / "expected_output.json").read_text())
    works = {path.stem for path in (ROOT / "scripts" / "bench").glob("*.py")
             if path.stem not in ("peers_numpy", "torch_oracle", "per_op")}
    assert works == set(expected)
