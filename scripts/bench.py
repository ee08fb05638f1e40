#!/usr/bin/env python3
"""Benchmark gradrepl side by side with its peers (issues 8 and 18).

Every workload in scripts/bench/ runs as a whole process: gradrepl
(`gradrepl run WORK.py`), hand-written NumPy and HIPS autograd
(`peers_numpy.py WORK IMPL`) and PyTorch CPU (`torch_oracle.py WORK.py`, when
the --torch-python interpreter can import torch). One warm-up round, then
--runs rounds, interleaved (each round runs every workload once per
implementation, in an order rotated from round to round). The report gives
medians of wall time and of peak resident memory (ru_maxrss from wait4), the
ratios gradrepl/peer against the goals, microseconds per op of the makemore
training step against PyTorch eager (`per_op.py`), and the REPL's time to its
first prompt under a pseudo-terminal.

Two environments: by default the runs get the environment as it is (the BLAS
threads and OpenBLAS core type the machine sets: what a user gets), and the
goals are judged there. --tuned pins BLAS/OpenMP to one thread and removes
OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE (steadier numbers on a shared machine);
--both reports the two side by side, goals still judged on the first.

Not part of the test suite: it takes minutes and needs the `bench` extra
(`pip install -e '.[bench]'`); threadpoolctl, when installed, names the BLAS
kernel in the header.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import select
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent / "bench"
WORKS = ("empty", "mlp", "mlp_nn", "chain", "scalar_ops", "makemore")
IMPLS = ("gradrepl", "numpy", "autograd", "torch")
# (work, peer, goal for gradrepl/peer) from issues 8, 13 and 18; a peer "gradrepl:WORK" is
# gradrepl running another workload (issue 13: nn.Linear + optim.SGD against hand-written tensors).
TIME_GOALS = (
    ("empty", "numpy", 1.3),
    ("mlp", "numpy", 1.3),
    ("mlp_nn", "gradrepl:mlp", 1.3),
    ("chain", "autograd", 1.0),
    ("scalar_ops", "autograd", 1.0),
    ("makemore", "torch", 0.8),
)
MEMORY_GOALS = (("mlp", "numpy", 1.5),)
REPL_GOAL_S = 0.5
# Set on some processors for old OpenBLAS builds; they slow a current numpy.
OPENBLAS_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

PROBE = r"""
import importlib.metadata, importlib.util, json, platform, sys
info = {"python": platform.python_version(), "executable": sys.executable}
for name in ("numpy", "autograd", "torch"):
    if importlib.util.find_spec(name) is not None:
        info[name] = importlib.metadata.version(name)
if "numpy" in info:
    import numpy
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]
        info["blas"] = [{"internal_api": blas.get("name"), "version": blas.get("version"),
                         "configuration": blas.get("openblas configuration")}]
    else:
        keys = ("internal_api", "version", "architecture", "num_threads", "threading_layer")
        info["blas"] = [{k: lib.get(k) for k in keys}
                        for lib in threadpool_info() if lib.get("user_api") == "blas"]
print(json.dumps(info))
"""


@dataclass
class Sample:
    """One finished process."""

    wall_s: float
    cpu_s: float
    maxrss_kib: int
    returncode: int
    stdout: str
    stderr: str


@dataclass
class Series:
    """All timed samples of one workload under one implementation."""

    argv: list[str]
    samples: list[Sample] = field(default_factory=list)
    failure: str | None = None

    def median_s(self) -> float | None:
        return statistics.median(s.wall_s for s in self.samples) if self.samples else None

    def median_cpu_s(self) -> float | None:
        return statistics.median(s.cpu_s for s in self.samples) if self.samples else None

    def median_mib(self) -> float | None:
        if not self.samples:
            return None
        return statistics.median(s.maxrss_kib for s in self.samples) / 1024


def run_process(argv: list[str], env: dict[str, str], timeout_s: float) -> Sample:
    """Run argv to completion; wall time from spawn to reap, peak RSS from wait4."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                env=env, cwd=BENCH_DIR)
        pidfd = os.pidfd_open(proc.pid)
        try:
            readable, _, _ = select.select([pidfd], [], [], timeout_s)
            if not readable:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            os.close(pidfd)
        wall_s = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
        if not readable:
            stderr += f"\nkilled after the {timeout_s:g} s timeout"
        return Sample(wall_s, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode,
                      out.read().decode(errors="replace"), stderr)


def probe(python: str, env: dict[str, str]) -> dict:
    done = subprocess.run([python, "-c", PROBE], env=env, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        return {"executable": python, "error": last_line(done.stderr)}
    return json.loads(done.stdout)


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def default_gradrepl(python: str) -> list[str]:
    script = Path(python).parent / "gradrepl"
    return [str(script)] if script.exists() else [python, "-m", "gradrepl"]


def commands(args: argparse.Namespace, peers: dict, torch_info: dict | None
             ) -> tuple[dict[tuple[str, str], list[str]], list[str]]:
    """The command line of each (work, implementation) that can run, and notes on the others."""
    py, notes = args.python, []
    cmds: dict[tuple[str, str], list[str]] = {}
    peers_script = str(BENCH_DIR / "peers_numpy.py")
    for work in args.works:
        cmds[work, "gradrepl"] = [*args.gradrepl, "run", f"{work}.py"]
        if work == "empty":
            cmds[work, "numpy"] = [py, "-c", "import numpy"]
        elif work in ("mlp", "chain"):
            cmds[work, "numpy"] = [py, peers_script, work, "numpy"]
        if "autograd" in peers and work not in ("makemore", "mlp_nn"):
            cmds[work, "autograd"] = ([py, "-c", "import autograd"] if work == "empty"
                                      else [py, peers_script, work, "autograd"])
        if torch_info is not None:
            cmds[work, "torch"] = [args.torch_python, str(BENCH_DIR / "torch_oracle.py"),
                                   f"{work}.py"]
    if "scalar_ops" in args.works:
        notes.append("scalar_ops has no hand-written NumPy peer (peers_numpy.py runs autograd "
                     "for it).")
    if "makemore" in args.works:
        notes.append("makemore's peer is PyTorch CPU (the lecture's own code).")
    if "autograd" not in peers:
        notes.append(f"autograd is not installed for {py}: pip install -e '.[bench]'.")
    if torch_info is None and args.works:
        notes.append(f"torch is not importable by {args.torch_python}: pass --torch-python.")
    return cmds, notes


def run_rounds(cmds: dict[tuple[str, str], list[str]], args: argparse.Namespace,
               env: dict[str, str]) -> dict[tuple[str, str], Series]:
    series = {key: Series(argv) for key, argv in cmds.items()}
    total = args.warmup + args.runs
    for round_no in range(total):
        label = (f"warm-up {round_no + 1}/{args.warmup}" if round_no < args.warmup
                 else f"run {round_no - args.warmup + 1}/{args.runs}")
        print(f"bench: {label}", file=sys.stderr, flush=True)
        for work in args.works:
            impls = [impl for impl in IMPLS if (work, impl) in series]
            shift = round_no % len(impls)
            for impl in impls[shift:] + impls[:shift]:
                one = series[work, impl]
                if one.failure is not None:
                    continue
                sample = run_process(one.argv, env, args.timeout)
                if sample.returncode != 0:
                    one.failure = f"exit {sample.returncode}: {last_line(sample.stderr)}"
                    one.samples.clear()
                elif round_no >= args.warmup:
                    one.samples.append(sample)
    return series


def repl_first_prompt(args: argparse.Namespace, env: dict[str, str]) -> dict:
    """Median seconds from spawning `gradrepl` on a pty until its prompt shows."""
    try:
        import pexpect
    except ImportError:
        return {"skipped": "pexpect is not installed: pip install -e '.[test]'"}
    times = []
    with tempfile.TemporaryDirectory() as home:
        # A private data directory keeps the learner's history out of the measurement.
        repl_env = dict(env, XDG_DATA_HOME=home, XDG_CONFIG_HOME=home, TERM="xterm-256color",
                        PROMPT_TOOLKIT_NO_CPR="1")
        for run_no in range(args.warmup + args.runs):
            start = time.perf_counter()
            child = pexpect.spawn(args.gradrepl[0], args.gradrepl[1:], env=repl_env, cwd=home,
                                  dimensions=(24, 80), encoding="utf-8", codec_errors="replace")
            try:
                seen = child.expect([args.prompt, pexpect.EOF, pexpect.TIMEOUT],
                                    timeout=args.timeout)
                elapsed = time.perf_counter() - start
                if seen != 0:
                    why = "exited" if seen == 1 else f"timed out after {args.timeout:g} s"
                    tail = last_line(child.before or "")
                    return {"skipped": f"no prompt matching {args.prompt!r}: gradrepl {why}"
                                       + (f" ({tail})" if tail else "")}
                child.sendeof()
                child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=5)
            finally:
                child.close(force=True)
            if run_no >= args.warmup:
                times.append(elapsed)
    return {"times_s": times, "median_s": statistics.median(times)}


# gradrepl's main() in this process (no worker, no os._exit: the statistics get written),
# imports included
PROFILE_DRIVER = """
import cProfile, sys
stats_path, work = sys.argv[1], sys.argv[2]
profiler = cProfile.Profile()
profiler.enable()
from gradrepl.cli import main
rc = main(["run", work])
profiler.disable()
profiler.dump_stats(stats_path)
sys.exit(rc)
"""


def profile(args: argparse.Namespace, env: dict[str, str]) -> int:
    """Run `gradrepl run WORK.py` (cli.main, in one process) under cProfile and print its
    hotspots."""
    import pstats

    with tempfile.TemporaryDirectory() as tmp:
        stats_path = Path(tmp) / "gradrepl.prof"
        argv = [args.python, "-c", PROFILE_DRIVER, str(stats_path), f"{args.profile}.py"]
        sample = run_process(argv, env, args.timeout)
        if sample.returncode != 0:
            print(f"bench: {shlex.join(argv)}: exit {sample.returncode}: "
                  f"{last_line(sample.stderr)}", file=sys.stderr)
            return 1
        print(f"{args.profile}: {sample.wall_s:.2f} s under cProfile; gradrepl printed "
              f"{sample.stdout.strip()!r}")
        stats = pstats.Stats(str(stats_path), stream=sys.stdout).strip_dirs()
        for order in ("tottime", "cumulative"):
            stats.sort_stats(order).print_stats(args.profile_lines)
    return 0


def goal_rows(series: dict[tuple[str, str], Series], repl: dict | None) -> list[dict]:
    rows = []
    for kind, goals, measure in (("time", TIME_GOALS, Series.median_s),
                                 ("memory", MEMORY_GOALS, Series.median_mib)):
        for work, peer, goal in goals:
            if (work, "gradrepl") not in series:
                continue
            other = (peer.split(":", 1)[1], "gradrepl") if peer.startswith("gradrepl:") else (work, peer)
            ours, theirs = series[work, "gradrepl"], series.get(other)
            row = {"work": work, "kind": kind, "peer": peer, "goal": goal, "ratio": None}
            if ours.failure:
                row["why"] = "gradrepl failed"
            elif theirs is None or theirs.failure:
                row["why"] = f"{peer} did not run"
            else:
                row["ratio"] = measure(ours) / measure(theirs)
                row["met"] = row["ratio"] <= goal
                if kind == "time":   # steadier than wall time on a shared machine
                    row["cpu_ratio"] = ours.median_cpu_s() / theirs.median_cpu_s()
            rows.append(row)
    if repl is not None:
        row = {"work": "repl", "kind": "first prompt", "peer": None, "goal": REPL_GOAL_S,
               "ratio": repl.get("median_s")}
        if "median_s" in repl:
            row["met"] = repl["median_s"] <= REPL_GOAL_S
        else:
            row["why"] = "skipped"
        rows.append(row)
    return rows


def output_checks(series: dict[tuple[str, str], Series]) -> dict[str, dict]:
    """Compare gradrepl's and torch's stdout with the output recorded from PyTorch."""
    expected = json.loads((BENCH_DIR / "expected_output.json").read_text(encoding="utf-8"))
    checks = {}
    for (work, impl), one in series.items():
        if impl in ("gradrepl", "torch") and one.samples:
            got = one.samples[-1].stdout
            checks[f"{work}/{impl}"] = {"ok": got == expected[work], "got": got,
                                        "expected": expected[work]}
    return checks


def render(report: dict) -> str:
    """The report as text tables (also for a report saved with --json: see --render)."""
    env, lines = report["environment"], []
    peers = env["python"]
    blas = ", ".join(
        " ".join(str(part) for part in (lib.get("internal_api"), lib.get("version")) if part)
        + (f" ({lib['architecture']} kernels, threads: {lib['num_threads']})"
           if lib.get("architecture") else "")
        for lib in peers.get("blas", [])) or "unknown"
    lines += [
        f"gradrepl benchmark, {report['date']}",
        f"machine: {env['cpu']}, {env['cores']} cores, {env['platform']}",
        f"python {peers.get('python')} ({peers.get('executable')}), numpy {peers.get('numpy')},"
        f" BLAS {blas}",
        f"environment of the runs ({report.get('mode', 'as-is')}): " + (", ".join(
            f"{k}={v}" for k, v in {**env["thread_env"], **env["openblas_env"]}.items())
            or "no thread or OpenBLAS variables set"),
        f"autograd {peers.get('autograd', 'not installed')}; torch "
        + (f"{env['torch']['torch']} ({env['torch']['executable']})" if env.get("torch")
           else "not run"),
        f"gradrepl command: {shlex.join(report['gradrepl_command'])} run WORK.py",
        f"runs: {report['runs']} timed after {report['warmup']} warm-up, interleaved; "
        "medians of whole-process wall time and ru_maxrss",
        "load average (1 min) before and after: "
        + " and ".join(f"{load:.2f}" for load in report["load_average"]),
        "",
    ]
    results = report["results"]
    impls = [impl for impl in IMPLS if any(key.endswith(f"/{impl}") for key in results)]

    def table(title: str, cell) -> None:
        lines.append(title)
        lines.append(f"{'work':<12}" + "".join(f"{impl:>20}" for impl in impls))
        for work in report["works"]:
            row = f"{work:<12}"
            for impl in impls:
                one = results.get(f"{work}/{impl}")
                text = "n/a" if one is None else ("FAILED" if one["failure"] else cell(one))
                row += f"{text:>20}"
            lines.append(row)
        lines.append("")

    if results:
        table("Wall time, median s [min-max]", lambda one: (
            f"{one['median_s']:.3f} [{min(one['wall_s']):.2f}-{max(one['wall_s']):.2f}]"))
        table("CPU time (user + system), median s", lambda one: f"{one['median_cpu_s']:.3f}")
        table("Peak memory, median MiB", lambda one: f"{one['median_maxrss_mib']:.1f}")

    ops = report.get("per_op")
    if ops:
        lines.append("Microseconds per op of the makemore step (in-process, best of 3, "
                     "loop cost subtracted)")
        impls_op = [impl for impl in ("gradrepl", "torch") if impl in ops]
        lines.append(f"  {'op':<34}" + "".join(f"{impl:>12}" for impl in impls_op)
                     + ("       ratio" if len(impls_op) == 2 else ""))
        failed = {impl: ops[impl]["failure"] for impl in impls_op if "failure" in ops[impl]}
        labels = next((list(ops[impl]) for impl in impls_op if impl not in failed), [])
        for label in labels:
            values = [ops[impl].get(label) for impl in impls_op]
            row = f"  {label:<34}" + "".join(
                f"{v:>12.2f}" if isinstance(v, float) else f"{'-':>12}" for v in values)
            if len(values) == 2 and all(isinstance(v, float) for v in values) and values[1] > 0:
                row += f"{values[0] / values[1]:>12.2f}"
            lines.append(row)
        lines += [f"  {impl} failed: {why}" for impl, why in failed.items()]
        lines.append("")

    lines.append("Goals (issues 8 and 18)")
    lines.append(f"  {'measure':<24}{'peer':<10}{'gradrepl/peer':>14}  {'goal':<10}{'verdict':<9}"
                 "CPU-time ratio")
    for row in report["goals"]:
        unit = "" if row["peer"] else " s"
        value = "-" if row["ratio"] is None else f"{row['ratio']:.2f}{unit}"
        verdict = row["why"] if row["ratio"] is None else ("met" if row["met"] else "MISSED")
        goal = f"<= {row['goal']}{unit}"
        cpu = f"{row['cpu_ratio']:.2f}" if row.get("cpu_ratio") is not None else ""
        lines.append(f"  {row['work'] + ' ' + row['kind']:<24}{row['peer'] or '-':<10}"
                     f"{value:>14}  {goal:<10}{verdict:<9}{cpu}".rstrip())
    lines.append("")

    failures = [f"  {key}: {one['failure']}" for key, one in results.items() if one["failure"]]
    wrong = [f"  {key}: printed {c['got']!r}, PyTorch printed {c['expected']!r}"
             for key, c in report["outputs"].items() if not c["ok"]]
    if failures:
        lines += ["Failed runs (not timed):", *failures]
    if wrong:
        lines += ["Output differs from PyTorch's:", *wrong]
    if report["repl"] is not None and "skipped" in report["repl"]:
        lines.append(f"REPL first prompt skipped: {report['repl']['skipped']}")
    lines += [f"Note: {note}" for note in report["notes"]]
    return "\n".join(lines).rstrip() + "\n"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time gradrepl against hand-written NumPy, HIPS autograd and PyTorch CPU "
                    "on the workloads in scripts/bench/ (whole processes, interleaved, "
                    "medians), with the goals of issue 8.")
    parser.add_argument("--runs", type=int, default=5, metavar="N",
                        help="timed runs of each workload and implementation (default 5)")
    parser.add_argument("--warmup", type=int, default=1, metavar="N",
                        help="untimed rounds before them (default 1)")
    parser.add_argument("--only", action="append", choices=[*WORKS, "repl"], metavar="WORK",
                        help=f"run only this workload (repeatable): {', '.join(WORKS)} or "
                             "repl (time to first prompt)")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter for the NumPy and autograd peers and the probe "
                             "(default: this one)")
    parser.add_argument("--gradrepl", type=shlex.split, metavar="CMD",
                        help="command that starts gradrepl (default: the gradrepl script next "
                             "to --python, else 'PYTHON -m gradrepl')")
    parser.add_argument("--torch-python", metavar="PYTHON",
                        help="interpreter with torch for the PyTorch CPU peer (default: "
                             "--python; skipped when it cannot import torch)")
    parser.add_argument("--tuned", action="store_true",
                        help="pin BLAS and OpenMP to one thread and remove OPENBLAS_CORETYPE "
                             "and OPENBLAS_L2_SIZE (steadier on a shared machine); the default "
                             "runs in the environment as it is, as a user runs gradrepl")
    parser.add_argument("--both", action="store_true",
                        help="run as it is and --tuned, one report each (goals judged on the "
                             "environment as it is)")
    parser.add_argument("--per-op", action=argparse.BooleanOptionalAction, default=True,
                        help="time each op of the makemore step in-process against PyTorch "
                             "eager (scripts/bench/per_op.py; default on)")
    parser.add_argument("--per-op-n", type=int, default=2000, metavar="N",
                        help="iterations per op in the per-op table (default 2000)")
    parser.add_argument("--prompt", default=r">>> ",
                        help="regular expression of the REPL's first prompt (default '>>> ')")
    parser.add_argument("--timeout", type=float, default=300.0, metavar="S",
                        help="kill a run after S seconds (default 300)")
    parser.add_argument("--json", action="store_true",
                        help="print the report as JSON instead of tables")
    parser.add_argument("--render", metavar="FILE",
                        help="print the tables of a report saved with --json, running nothing")
    parser.add_argument("--profile", choices=WORKS, metavar="WORK",
                        help="instead of benchmarking, run 'PYTHON -m gradrepl run WORK.py' "
                             "under cProfile and print the top functions by own and by "
                             "cumulative time")
    parser.add_argument("--scaling", action="store_true",
                        help="instead of benchmarking, time forward + backward of chains of "
                             "10^3..10^6 ops and a graph of depth 10^5 (time, peak memory, "
                             "cost per node; a Markdown table for the README)")
    parser.add_argument("--profile-lines", type=int, default=25, metavar="N",
                        help="functions listed per ordering with --profile (default 25)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warmup < 0 or args.per_op_n < 1:
        parser.error("--runs and --per-op-n must be at least 1, --warmup at least 0")
    args.gradrepl = args.gradrepl or default_gradrepl(args.python)
    args.torch_python = args.torch_python or args.python
    if args.only and "makemore" not in args.only:
        args.per_op = False
    only = args.only or [*WORKS, "repl"]
    args.works = [work for work in WORKS if work in only]
    args.repl = "repl" in only
    return args


SCALING_CHAIN = """import torch
x = torch.ones(16, requires_grad=True)
y = x
for i in range({n}):
    y = y * 1.000001
y.sum().backward()
y = 0
print(round(x.grad[0].item(), 4))
"""
SCALING_DEEP = """import torch
x = torch.ones(16, requires_grad=True)
y = x
for i in range({n}):
    y = y + 0.00001 * torch.sin(y)
y.sum().backward()
y = 0
print(round(x.grad[0].item(), 4))
"""
# (label, program, n, autograd nodes): chains of one multiplication per step, and a graph
# that branches and merges at each of its levels (sin, mul, add: depth 3n).
SCALING = tuple(("chain", SCALING_CHAIN, n, n) for n in (10 ** 3, 10 ** 4, 10 ** 5, 10 ** 6)) \
    + (("depth", SCALING_DEEP, 10 ** 5, 3 * 10 ** 5),)


def scaling(args: argparse.Namespace) -> int:
    """How cost grows with the graph: forward + backward of long chains and a deep graph."""
    env = environment(args.tuned)
    torch_info = probe(args.torch_python, env)
    impls = {"gradrepl": None}
    if "torch" in torch_info:
        impls["torch"] = [args.torch_python, str(BENCH_DIR / "torch_oracle.py")]
    # No step or time budget: the program is meant to run long.
    budget = ["--max-steps", str(10 ** 12), "--time-limit", str(10 ** 6)]
    rows = []
    def baseline(argv: list[str]) -> Sample:
        """The empty program after a warm-up run: least time and memory of two."""
        samples = [run_process(argv, env, args.timeout) for _ in range(3)][1:]
        return Sample(min(x.wall_s for x in samples), min(x.cpu_s for x in samples),
                      min(x.maxrss_kib for x in samples), 0, "", "")

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        empty = {impl: baseline((argv or [*args.gradrepl, "run"]) + [str(BENCH_DIR / "empty.py")])
                 for impl, argv in impls.items()}
        for label, program, n, nodes in SCALING:
            path = Path(tmp) / f"{label}_{n}.py"
            path.write_text(program.format(n=n), encoding="utf-8")
            row = {"label": label, "n": n, "nodes": nodes}
            for impl, argv in impls.items():
                print(f"bench: scaling {label} {n} {impl}", file=sys.stderr, flush=True)
                cmd = ([*args.gradrepl, "run", *budget] if argv is None else argv) + [str(path)]
                sample = run_process(cmd, env, args.timeout)
                row[impl] = {"wall_s": sample.wall_s, "cpu_s": sample.cpu_s,
                             "maxrss_mib": sample.maxrss_kib / 1024,
                             "out": sample.stdout.strip(),
                             "failure": None if sample.returncode == 0 else
                             f"exit {sample.returncode}: {last_line(sample.stderr)}",
                             "cpu_us_per_node": (sample.cpu_s - empty[impl].cpu_s) / nodes * 1e6,
                             "bytes_per_node": (sample.maxrss_kib - empty[impl].maxrss_kib)
                             * 1024 / nodes}
            rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("| graph | autograd nodes |" + "".join(
        f" {impl}: wall, CPU | peak memory | CPU, memory per node |" for impl in impls))
    print("|---|---|" + "---|---|---|" * len(impls))
    for row in rows:
        what = (f"chain of {row['n']:,} multiplications" if row["label"] == "chain"
                else f"depth {row['n']:,} (sin, mul, add per level)")
        line = f"| {what} | {row['nodes']:,} |"
        for impl in impls:
            one = row[impl]
            if one["failure"]:
                line += f" {one['failure']} | | |"
                continue
            line += (f" {one['wall_s']:.2f} s, {one['cpu_s']:.2f} s | {one['maxrss_mib']:.0f} MiB |"
                     f" {one['cpu_us_per_node']:.1f} us, {one['bytes_per_node']:.0f} B |")
        print(line)
    outs = {(row["label"], row["n"]): {impl: row[impl]["out"] for impl in impls} for row in rows}
    differ = [key for key, o in outs.items() if len(set(o.values())) > 1]
    print(f"\nprinted gradients {'differ for ' + str(differ) if differ else 'equal'} "
          f"({', '.join(impls)}); per node: CPU time and peak memory over the empty program's")
    return 0


def environment(tuned: bool) -> dict[str, str]:
    """The runs' environment: as it is, or pinned to one BLAS thread without the core type."""
    env = dict(os.environ)
    # Without .pyc files gradrepl would recompile its sources on every run, which an
    # installed gradrepl never does; the warm-up round writes them.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if tuned:
        env.update(dict.fromkeys(THREAD_VARS, "1"))
        for name in OPENBLAS_VARS:
            env.pop(name, None)
    return env


def per_op(args: argparse.Namespace, env: dict[str, str], torch_info: dict | None) -> dict:
    """Microseconds per op of the makemore step under gradrepl and under PyTorch eager."""
    script = str(BENCH_DIR / "per_op.py")
    impls = {"gradrepl": args.python}
    if torch_info is not None:
        impls["torch"] = args.torch_python
    result = {}
    for impl, python in impls.items():
        try:
            done = subprocess.run([python, script, impl, str(args.per_op_n)], env=env,
                                  cwd=BENCH_DIR, capture_output=True, text=True,
                                  timeout=args.timeout, check=False)
        except subprocess.TimeoutExpired:
            result[impl] = {"failure": f"killed after the {args.timeout:g} s timeout"}
            continue
        if done.returncode != 0:
            result[impl] = {"failure": last_line(done.stderr)}
        else:
            result[impl] = json.loads(done.stdout)
    return result


def measure(args: argparse.Namespace, mode: str) -> dict | None:
    """Run every selected workload in one environment; the report (None if peers cannot run)."""
    env = environment(mode == "tuned")
    print(f"bench: environment {mode}", file=sys.stderr, flush=True)
    peers = probe(args.python, env)
    if "error" in peers or "numpy" not in peers:
        print(f"bench: {args.python} cannot run the peers: {peers.get('error', 'no numpy')}",
              file=sys.stderr)
        return None
    torch_probe = peers if args.torch_python == args.python else probe(args.torch_python, env)
    torch_info = torch_probe if "torch" in torch_probe else None
    cmds, notes = commands(args, peers, torch_info)
    if "PYTHONDONTWRITEBYTECODE" in os.environ:
        notes.append("PYTHONDONTWRITEBYTECODE was removed from the runs' environment so the "
                     "warm-up writes the .pyc files an installed gradrepl has.")
    load_before = os.getloadavg()[0]
    series = run_rounds(cmds, args, env)
    ops = per_op(args, env, torch_info) if args.per_op else None
    if args.per_op and torch_info is None:
        notes.append("per-op table without PyTorch: torch is not importable.")
    repl = repl_first_prompt(args, env) if args.repl else None
    return {
        "mode": mode,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "environment": {
            "cpu": cpu_model(), "cores": os.cpu_count(), "platform": platform.platform(),
            "python": peers, "torch": torch_info,
            "openblas_env": {k: env[k] for k in OPENBLAS_VARS if k in env},
            "thread_env": {k: env[k] for k in THREAD_VARS if k in env},
        },
        "load_average": [load_before, os.getloadavg()[0]],
        "gradrepl_command": args.gradrepl, "runs": args.runs, "warmup": args.warmup,
        "works": args.works,
        "results": {
            f"{work}/{impl}": {
                "argv": one.argv, "failure": one.failure,
                "wall_s": [s.wall_s for s in one.samples], "median_s": one.median_s(),
                "cpu_s": [s.cpu_s for s in one.samples], "median_cpu_s": one.median_cpu_s(),
                "maxrss_kib": [s.maxrss_kib for s in one.samples],
                "median_maxrss_mib": one.median_mib(),
            } for (work, impl), one in series.items()},
        "goals": goal_rows(series, repl),
        "outputs": output_checks(series),
        "per_op": ops,
        "repl": repl, "notes": notes,
    }


def render_all(reports: list[dict]) -> str:
    """Each report's tables in turn; the goals are judged on the first."""
    texts = [render(report) for report in reports]
    if len(reports) > 1:
        texts = [f"=== environment {report['mode']}"
                 + (" (goals judged here)" if n == 0 else "") + " ===\n" + text
                 for n, (report, text) in enumerate(zip(reports, texts))]
    return "\n".join(texts)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.render:
        saved = json.loads(Path(args.render).read_text(encoding="utf-8"))
        print(render_all(saved if isinstance(saved, list) else [saved]), end="")
        return 0
    if args.profile:
        return profile(args, environment(args.tuned))
    if args.scaling:
        return scaling(args)
    modes = ["as-is", "tuned"] if args.both else ["tuned" if args.tuned else "as-is"]
    reports = []
    for mode in modes:
        report = measure(args, mode)
        if report is None:
            return 2
        reports.append(report)
    if args.json:
        print(json.dumps(reports if args.both else reports[0], indent=2))
    else:
        print(render_all(reports), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
