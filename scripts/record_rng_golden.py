"""Record PyTorch's random numbers as golden data for gradrepl.engine.rng.

Run with the PyTorch oracle venv (never imported by the project or its tests):

    /work/torchvenv/bin/python scripts/record_rng_golden.py

Writes tests/data/rng/cases.json (the calls, the PyTorch version and the CPU
capability) and tests/data/rng/golden.npz (inputs and every output, bitwise).
Each case seeds the default generator (or a fresh torch.Generator) and runs a
short sequence of calls; every output and the final get_rng_state() are kept.

It then runs itself again with ATEN_CPU_CAPABILITY=default (``--default-kernel``)
to record float32 normals from PyTorch's scalar kernel into
cases_default.json / golden_default.npz.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import torch

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "rng"

SEEDS = [0, 1, 42, 1234, 2**32 + 7, 2**63 + 5, 2**64 - 1, -3]
SHAPES = [[1], [15], [16], [17], [100], [1000], [3, 4], [4, 5], [2, 3, 4], [5, 7, 3]]
DTYPES = ["float32", "float64"]
TORCH_DTYPES = {"float32": torch.float32, "float64": torch.float64,
                "int64": torch.int64, "int32": torch.int32}


def build_cases() -> list[dict]:
    """Every case: a seed and a list of steps [op, kwargs]."""
    cases: list[dict] = []

    def add(name, seed, steps, generator=False):
        cases.append({"name": name, "seed": seed, "steps": steps, "generator": generator})

    for seed in SEEDS:
        for shape in SHAPES:
            for dtype in DTYPES:
                tag = f"{seed}_{'x'.join(map(str, shape))}_{dtype}"
                add(f"rand_{tag}", seed, [["rand", {"shape": shape, "dtype": dtype}]])
                add(f"randn_{tag}", seed, [["randn", {"shape": shape, "dtype": dtype}]])
    rng = np.random.default_rng(2024)
    for i, shape in enumerate(SHAPES):
        seed = SEEDS[i % len(SEEDS)]
        for dtype in DTYPES:
            tag = f"{seed}_{'x'.join(map(str, shape))}_{dtype}"
            add(f"uniform_{tag}", seed, [["uniform", {"shape": shape, "low": -2.5, "high": 3.25,
                                                      "dtype": dtype}]])
            add(f"normal_{tag}", seed, [["normal", {"shape": shape, "mean": 1.5, "std": 0.75,
                                                    "dtype": dtype}]])
            add(f"normal_mean_array_{tag}", seed, [["normal", {
                "mean": rng.standard_normal(shape).astype(dtype), "std": 2.0, "dtype": dtype}]])
            add(f"normal_std_array_{tag}", seed, [["normal", {
                "mean": -1.25, "std": rng.uniform(0.1, 3, shape).astype(dtype), "dtype": dtype}]])
            add(f"normal_both_arrays_{tag}", seed, [["normal", {
                "mean": rng.standard_normal(shape).astype(dtype),
                "std": rng.uniform(0.1, 3, shape).astype(dtype), "dtype": dtype}]])
            add(f"bernoulli_scalar_{tag}", seed, [["bernoulli", {"p": 0.3, "shape": shape,
                                                                 "dtype": dtype}]])
            add(f"bernoulli_array_{tag}", seed, [["bernoulli", {
                "p": rng.uniform(0, 1, shape).astype(dtype), "shape": shape, "dtype": dtype}]])
            add(f"dropout_{tag}", seed, [["dropout_mask", {"shape": shape, "p": 0.4,
                                                           "dtype": dtype}]])
        for low, high in [(0, 10), (-5, 5), (0, 2**28 + 3), (-(2**40), 2**40)]:
            add(f"randint_{seed}_{i}_{low}_{high}", seed, [["randint", {
                "low": low, "high": high, "shape": shape, "dtype": "int64"}]])
        add(f"randint_float_{seed}_{i}", seed, [["randint", {
            "low": 3, "high": 17, "shape": shape, "dtype": "float32"}]])
    for seed in SEEDS[:4]:
        for n in [1, 2, 15, 16, 17, 100, 1000]:
            add(f"randperm_{seed}_{n}", seed, [["randperm", {"n": n, "dtype": "int64"}]])
        for k, probs in enumerate([rng.uniform(0, 1, 5), rng.uniform(0, 1, (3, 8)),
                                   np.array([0.0, 1.0, 2.0, 0.0, 5.0]), rng.uniform(0, 1, 200)]):
            for dtype in DTYPES:
                p = probs.astype(dtype)
                for num, repl in [(1, False), (3, False), (1, True), (7, True), (50, True)]:
                    if not repl and num > int(np.count_nonzero(p[..., :] > 0, axis=-1).min()):
                        continue
                    add(f"multinomial_{seed}_{k}_{dtype}_{num}_{repl}", seed, [["multinomial", {
                        "probs": p, "num_samples": num, "replacement": repl}]])
    # Sequences: the normal cache across calls, state round trips, mixed draws.
    for seed in SEEDS[:3]:
        add(f"sequence_{seed}", seed, [
            ["randn", {"shape": [3], "dtype": "float32"}],
            ["get_state", {}],
            ["randn", {"shape": [1], "dtype": "float64"}],
            ["rand", {"shape": [5], "dtype": "float32"}],
            ["randn", {"shape": [20], "dtype": "float32"}],
            ["get_state", {}],
            ["randint", {"low": 0, "high": 100, "shape": [7], "dtype": "int64"}],
            ["randn", {"shape": [2, 2], "dtype": "float32"}],
            ["get_state", {}],
        ])
        add(f"set_state_{seed}", seed, [
            ["randn", {"shape": [5], "dtype": "float32"}],
            ["save_state", {}],
            ["randn", {"shape": [3, 4], "dtype": "float32"}],
            ["restore_state", {}],
            ["randn", {"shape": [3, 4], "dtype": "float32"}],
            ["get_state", {}],
        ])
        add(f"long_{seed}", seed, [["rand", {"shape": [700], "dtype": "float32"}],
                                   ["get_state", {}],
                                   ["rand", {"shape": [10], "dtype": "float64"}],
                                   ["get_state", {}]])
        add(f"generator_{seed}", seed, [["randn", {"shape": [4, 4], "dtype": "float32"}],
                                        ["rand", {"shape": [3], "dtype": "float32"}],
                                        ["get_state", {}]], generator=True)
    for seed in SEEDS:
        add(f"fresh_state_{seed}", seed, [["get_state", {}]])
    # Edge shapes, broadcasting, and torch.Generator() with its default seed.
    for dtype in DTYPES:
        for shape in ([], [0], [2, 0, 3]):
            tag = f"{'x'.join(map(str, shape)) or 'scalar'}_{dtype}"
            add(f"edge_{tag}", 5, [["rand", {"shape": shape, "dtype": dtype}],
                                   ["randn", {"shape": shape, "dtype": dtype}],
                                   ["get_state", {}]])
        add(f"normal_broadcast_{dtype}", 8, [["normal", {
            "mean": rng.standard_normal((3, 1)).astype(dtype),
            "std": rng.uniform(0.5, 2, (4,)).astype(dtype), "dtype": dtype}]])
        add(f"bernoulli_0d_{dtype}", 8, [["bernoulli", {
            "p": np.array(0.5, dtype), "shape": [], "dtype": dtype}]])
        for i, shape in enumerate([[5], [16], [33], [4, 6]]):
            add(f"exponential_{i}_{dtype}", SEEDS[i], [["exponential", {
                "shape": shape, "lambd": 1.5, "dtype": dtype}]])
    for dtype in DTYPES:
        for n in (16, 17, 40):
            add(f"normal_strided_{n}_{dtype}", 13, [["normal_strided", {
                "n": n, "mean": 0.5, "std": 2.0, "dtype": dtype}]])
    add("randint_scalar", 9, [["randint", {"low": -4, "high": 4, "shape": [], "dtype": "int64"}]])
    add("default_generator_object", None, [["rand", {"shape": [5], "dtype": "float32"}],
                                           ["randn", {"shape": [17], "dtype": "float32"}],
                                           ["get_state", {}]], generator=True)
    return cases


def build_default_kernel_cases() -> list[dict]:
    """Float32 normals that take the block path, for the DEFAULT kernel."""
    cases = []
    for seed in SEEDS:
        for shape in ([16], [17], [100], [1000], [4, 5], [5, 7, 3]):
            tag = f"{seed}_{'x'.join(map(str, shape))}"
            cases.append({"name": f"default_randn_{tag}", "seed": seed, "generator": False,
                          "steps": [["randn", {"shape": shape, "dtype": "float32"}]]})
        cases.append({"name": f"default_normal_{seed}", "seed": seed, "generator": False,
                      "steps": [["normal", {"shape": [300], "mean": -0.5, "std": 3.0,
                                            "dtype": "float32"}]]})
    return cases


def run_step(op: str, kw: dict, gen, saved: dict):
    g = {"generator": gen} if gen is not None else {}
    dt = TORCH_DTYPES.get(kw.get("dtype", "float32"))
    if op == "rand":
        return torch.rand(kw["shape"], dtype=dt, **g)
    if op == "randn":
        return torch.randn(kw["shape"], dtype=dt, **g)
    if op == "uniform":
        return torch.empty(kw["shape"], dtype=dt).uniform_(kw["low"], kw["high"], **g)
    if op == "normal":
        mean, std = kw["mean"], kw["std"]
        if isinstance(mean, np.ndarray) or isinstance(std, np.ndarray):
            mean = torch.from_numpy(mean) if isinstance(mean, np.ndarray) else mean
            std = torch.from_numpy(std) if isinstance(std, np.ndarray) else std
            return torch.normal(mean, std, **g)
        return torch.normal(mean, std, kw["shape"], dtype=dt, **g)
    if op == "normal_strided":  # normal_ on a non-contiguous view
        view = torch.empty(kw["n"], 2, dtype=dt)[:, 0]
        return view.normal_(kw["mean"], kw["std"], **g)
    if op == "exponential":
        return torch.empty(kw["shape"], dtype=dt).exponential_(kw["lambd"], **g)
    if op == "randint":
        return torch.randint(kw["low"], kw["high"], kw["shape"], dtype=dt, **g)
    if op == "randperm":
        return torch.randperm(kw["n"], dtype=dt, **g)
    if op == "bernoulli":
        p = kw["p"]
        if isinstance(p, np.ndarray):
            return torch.bernoulli(torch.from_numpy(p), **g)
        return torch.empty(kw["shape"], dtype=dt).bernoulli_(p, **g)
    if op == "multinomial":
        return torch.multinomial(torch.from_numpy(kw["probs"]), kw["num_samples"],
                                 kw["replacement"], **g)
    if op == "dropout_mask":
        assert gen is None
        return torch.nn.functional.dropout(torch.ones(kw["shape"], dtype=dt), kw["p"], True)
    if op == "get_state":
        return gen.get_state() if gen is not None else torch.get_rng_state()
    if op == "save_state":
        saved["state"] = gen.get_state() if gen is not None else torch.get_rng_state()
        return None
    if op == "restore_state":
        if gen is not None:
            gen.set_state(saved["state"])
        else:
            torch.set_rng_state(saved["state"])
        return None
    raise ValueError(op)


def record(cases: list[dict], stem: str) -> None:
    arrays: dict[str, np.ndarray] = {}
    manifest = []
    for ci, case in enumerate(cases):
        gen = None
        if case["generator"]:
            gen = torch.Generator()
            if case["seed"] is not None:
                gen.manual_seed(case["seed"])
            torch.manual_seed(12345)  # the default generator must not matter
        else:
            torch.manual_seed(case["seed"])
        saved: dict = {}
        steps = []
        for si, (op, kw) in enumerate(case["steps"]):
            spec = {}
            for key, value in kw.items():
                if isinstance(value, np.ndarray):
                    name = f"c{ci}_s{si}_{key}"
                    arrays[name] = value
                    spec[key] = {"array": name}
                else:
                    spec[key] = value
            result = run_step(op, kw, gen, saved)
            entry = {"op": op, "args": spec}
            if result is not None:
                name = f"c{ci}_s{si}_out"
                arrays[name] = result.numpy()
                entry["out"] = name
            steps.append(entry)
        manifest.append({"name": case["name"], "seed": case["seed"],
                         "generator": case["generator"], "steps": steps})
    OUT.mkdir(parents=True, exist_ok=True)
    npz = OUT / f"golden{stem}.npz"
    np.savez_compressed(npz, **arrays)
    meta = {
        "torch_version": torch.__version__,
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "machine": platform.machine(),
        "numpy": np.__version__,
        "python": sys.version.split()[0],
        "golden_sha256": hashlib.sha256(npz.read_bytes()).hexdigest(),
    }
    # One case per line: small, and diffs show which case changed.
    head = json.dumps(meta, indent=1)[:-2]
    lines = ",\n  ".join(json.dumps(case, separators=(",", ":")) for case in manifest)
    (OUT / f"cases{stem}.json").write_text(f'{head},\n "cases": [\n  {lines}\n ]\n}}\n')
    print(f"{len(manifest)} cases, {len(arrays)} arrays -> {OUT}/cases{stem}.json")


def main() -> None:
    torch.set_num_threads(1)
    if sys.argv[1:] == ["--default-kernel"]:
        assert torch.backends.cpu.get_cpu_capability() == "DEFAULT"
        record(build_default_kernel_cases(), "_default")
        return
    record(build_cases(), "")
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default")
    subprocess.run([sys.executable, __file__, "--default-kernel"], env=env, check=True)


if __name__ == "__main__":
    main()
