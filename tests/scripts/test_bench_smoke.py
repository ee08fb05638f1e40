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


def test_profile_prints_the_hotspots_of_a_run():
    """--profile runs gradrepl's main() in one process (the worker's os._exit would lose the
    statistics) and prints them, start-up included."""
    env = {k: v for k, v in __import__("os").environ.items() if k != "GRADREPL_IN_PROCESS"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--profile", "empty",
                           "--profile-lines", "20"], capture_output=True, text=True, timeout=120,
                          check=False, env=env)
    assert done.returncode == 0, done.stderr
    assert "empty:" in done.stdout and "cli.py" in done.stdout
