"""gradrepl.engine.rng against numbers recorded from PyTorch 2.13 (bitwise).

The golden data comes from scripts/record_rng_golden.py; see tests/data/rng/README.md.
"""

from __future__ import annotations

import json
import math
import platform
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.engine import rng
from gradrepl.engine.rng import Generator

DATA = Path(__file__).resolve().parent.parent / "data" / "rng"
META = json.loads((DATA / "cases.json").read_text())
GOLDEN = np.load(DATA / "golden.npz")
CASES = META["cases"]
# Recorded with ATEN_CPU_CAPABILITY=default: PyTorch's scalar float32 normal kernel.
META_DEFAULT = json.loads((DATA / "cases_default.json").read_text())
GOLDEN_DEFAULT = np.load(DATA / "golden_default.npz")


def _args(args: dict, golden=GOLDEN) -> dict:
    return {k: golden[v["array"]] if isinstance(v, dict) else v for k, v in args.items()}


def _call(gen: Generator, op: str, kw: dict, saved: dict):
    if op in ("rand", "randn"):
        return getattr(gen, op)(tuple(kw["shape"]), kw["dtype"])
    if op == "uniform":
        return gen.uniform(tuple(kw["shape"]), kw["low"], kw["high"], kw["dtype"])
    if op == "normal":
        return gen.normal(tuple(kw.get("shape", ())), kw["mean"], kw["std"], kw["dtype"])
    if op == "normal_strided":
        return gen.normal((kw["n"],), kw["mean"], kw["std"], kw["dtype"], contiguous=False)
    if op == "exponential":
        return gen.exponential(tuple(kw["shape"]), kw["lambd"], kw["dtype"])
    if op == "randint":
        return gen.randint(kw["low"], kw["high"], tuple(kw["shape"]), kw["dtype"])
    if op == "randperm":
        return gen.randperm(kw["n"], kw["dtype"])
    if op == "bernoulli":
        return gen.bernoulli(kw["p"], tuple(kw["shape"]), kw["dtype"])
    if op == "multinomial":
        return gen.multinomial(kw["probs"], kw["num_samples"], kw["replacement"])
    if op == "dropout_mask":
        return gen.dropout_mask(tuple(kw["shape"]), kw["p"], kw["dtype"])
    if op == "get_state":
        return gen.get_state()
    if op == "save_state":
        saved["state"] = gen.get_state()
        return None
    if op == "restore_state":
        gen.set_state(saved["state"])
        return None
    raise AssertionError(f"unknown op {op}")


def _same_bits(got: np.ndarray, want: np.ndarray) -> bool:
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return got.tobytes() == want.tobytes()


def _replay(case, golden):
    gen = Generator(case["seed"])
    saved: dict = {}
    for i, step in enumerate(case["steps"]):
        got = _call(gen, step["op"], _args(step["args"], golden), saved)
        if "out" in step:
            want = golden[step["out"]]
            assert _same_bits(np.asarray(got), want), (
                f"step {i} {step['op']}: got {got!r}, PyTorch {want!r}")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pytorch(case, monkeypatch):
    # PyTorch never dispatches normal_ to AVX512 kernels: AVX512 machines run AVX2.
    assert META["cpu_capability"] in ("AVX2", "AVX512")
    monkeypatch.setattr(rng, "float32_normal_kernel", lambda: "AVX2")
    _replay(case, GOLDEN)


@pytest.mark.parametrize("case", META_DEFAULT["cases"],
                         ids=[c["name"] for c in META_DEFAULT["cases"]])
def test_matches_pytorchs_default_kernel(case, monkeypatch):
    assert META_DEFAULT["cpu_capability"] == "DEFAULT"
    monkeypatch.setattr(rng, "float32_normal_kernel", lambda: "DEFAULT")
    _replay(case, GOLDEN_DEFAULT)


def test_kernel_choice_follows_aten_cpu_capability(monkeypatch):
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "default")
    rng.float32_normal_kernel.cache_clear()
    try:
        assert rng.float32_normal_kernel() == "DEFAULT"
    finally:
        rng.float32_normal_kernel.cache_clear()


def test_kernel_choice_detects_avx2_and_fma(monkeypatch):
    monkeypatch.delenv("ATEN_CPU_CAPABILITY", raising=False)
    cpuinfo = Path("/proc/cpuinfo")
    if not cpuinfo.exists() or platform.machine() != "x86_64":
        pytest.skip("needs an x86-64 Linux machine")
    flags = next(line for line in cpuinfo.read_text().splitlines() if line.startswith("flags"))
    rng.float32_normal_kernel.cache_clear()
    try:
        expected = "AVX2" if {"avx2", "fma"} <= set(flags.split()) else "DEFAULT"
        assert rng.float32_normal_kernel() == expected
    finally:
        rng.float32_normal_kernel.cache_clear()


def test_manual_seed_returns_the_generator_and_resets_draws():
    gen = Generator(7)
    first = gen.randn((5,), "float32")
    assert gen.manual_seed(7) is gen
    assert _same_bits(gen.randn((5,), "float32"), first)
    assert gen.initial_seed() == 7


def test_negative_seed_wraps_to_uint64():
    assert Generator(-1).initial_seed() == 2**64 - 1


def test_fresh_generator_uses_pytorchs_default_seed():
    assert Generator().initial_seed() == 67280421310721
    # torch.rand(2, generator=torch.Generator()) in PyTorch 2.13
    assert Generator().rand((2,), "float32").round(4).tolist() == pytest.approx([0.2673, 0.8725])


def test_seed_reseeds_at_random_and_reports_the_seed():
    gen = Generator(0)
    seeds = {gen.seed() for _ in range(4)}
    assert len(seeds) == 4 and all(0 <= s < 2**64 for s in seeds)
    seed = gen.seed()
    assert gen.initial_seed() == seed
    assert _same_bits(gen.rand((4,), "float32"), Generator(seed).rand((4,), "float32"))


def test_default_generator_is_seeded_at_random():
    assert rng.default_generator.initial_seed() != 67280421310721


def test_scalar_normal_caches_the_second_sample_across_calls():
    # Box-Muller's second value is kept for the next small draw, as in PyTorch.
    gen = Generator(3)
    pair = gen.randn((2,), "float64")
    gen.manual_seed(3)
    first = gen.randn((1,), "float64")
    second = gen.randn((1,), "float64")
    assert _same_bits(np.concatenate([first, second]), pair)


def test_state_round_trip_is_byte_identical_and_replays():
    gen = Generator(11)
    gen.randn((3,), "float32")  # leaves a cached normal sample in the state
    state = gen.get_state()
    assert state.dtype == np.uint8 and state.shape == (5056,)
    after = gen.rand((30,), "float64")
    other = Generator(0)
    other.set_state(state)
    assert _same_bits(other.get_state(), state)
    assert _same_bits(other.rand((30,), "float64"), after)


def test_set_state_rejects_bad_states_with_pytorchs_messages():
    with pytest.raises(RuntimeError) as wrong_size:
        Generator(0).set_state(np.zeros(12, np.uint8))
    assert str(wrong_size.value) == ("Expected a CPUGeneratorImplState of size 5056 but "
                                     "found the input RNG state size to be 12")
    with pytest.raises(RuntimeError, match="^Invalid mt19937 state$"):
        Generator(0).set_state(np.zeros(5056, np.uint8))


def test_dropout_without_randomness_for_p_0_and_1():
    gen = Generator(5)
    state = gen.get_state()
    assert np.all(gen.dropout_mask((3,), 0.0, "float32") == 1)
    assert np.all(gen.dropout_mask((3,), 1.0, "float32") == 0)
    assert _same_bits(gen.get_state(), state)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), n=st.integers(16, 300))
def test_float32_block_normal_matches_float64_box_muller_closely(seed, n):
    # An independent check of the float32 AVX2 emulation: same uniforms, exact math.
    gen = Generator(seed)
    got = gen.randn((n,), "float32").astype(np.float64)
    uniform = Generator(seed).rand((n + 16,), "float32").astype(np.float64)
    blocks = [uniform[i:i + 16] for i in range(0, n - n % 16, 16)]
    if n % 16:
        blocks.append(uniform[n:n + 16])
    want = []
    for b in blocks:
        r = np.sqrt(-2 * np.log(1 - b[:8]))
        t = 2 * math.pi * b[8:]
        want.append(np.concatenate([r * np.cos(t), r * np.sin(t)]))
    want = np.concatenate(want)
    if n % 16:
        want = np.concatenate([want[: n - 16], want[-16:]])
    assert np.allclose(got, want, rtol=2e-6, atol=2e-6)


def _moderate_floats(width: int):
    limit = 2.0**60 if width == 32 else 2.0**300  # products stay normal and finite
    tiny = 2.0**-50 if width == 32 else 2.0**-300
    return st.one_of(st.just(0.0), st.floats(tiny, limit, width=width),
                     st.floats(-limit, -tiny, width=width))


def _nearest_float32(exact: Fraction) -> float:
    guess = np.float32(float(exact))
    candidates = [np.nextafter(guess, np.float32(-np.inf)), guess,
                  np.nextafter(guess, np.float32(np.inf))]
    def key(c):
        return abs(Fraction(float(c)) - exact), int(np.array(c).view(np.int32)) & 1
    return float(min(candidates, key=key))


@settings(max_examples=300, deadline=None)
@given(a=_moderate_floats(64), b=_moderate_floats(64), c=_moderate_floats(64))
def test_fma64_rounds_once(a, b, c):
    want = float(Fraction(a) * Fraction(b) + Fraction(c))
    got = float(rng._fma64(np.array([a]), np.array([b]), np.array([c]))[0])
    assert got == want


@settings(max_examples=300, deadline=None)
@given(a=_moderate_floats(32), b=_moderate_floats(32), c=_moderate_floats(32),
       cancel=st.booleans())
def test_fma32_rounds_once(a, b, c, cancel):
    if cancel:  # land next to a float32 rounding boundary
        c = float(-np.float32(a * b))
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    got = rng._fma32(np.float32([a]), np.float32([b]), np.float32([c]))[0]
    assert float(got) == _nearest_float32(exact)


def test_fma32_avoids_double_rounding():
    # a*b + c = 1 + 2**-24 + 2**-60: just above a float32 midpoint, but rounding
    # to float64 first lands exactly on it (and then ties to even, down to 1.0).
    a, b = np.float32(4097 * 2.0**-30), np.float32(16773121 * 2.0**-30)
    got = rng._fma32(np.array([a]), np.array([b]), np.array([np.float32(1)]))[0]
    assert got == np.float32(1 + 2.0**-23)


def test_randperm_inside_out_variant_for_huge_n(monkeypatch):
    # PyTorch's branch for n >= 2**32 // 20, exercised here on a small n:
    # r[i] = r[z]; r[z] = i with z = random64() % (i + 1).
    monkeypatch.setattr(rng, "_RANDPERM_LARGE_N", 5)
    got = Generator(4).randperm(6, "int64")
    words = Generator(4)._random64(6).tolist()
    want = [0] * 6
    for i, word in enumerate(words):
        z = word % (i + 1)
        want[i] = want[z]
        want[z] = i
    assert got.tolist() == want and sorted(want) == list(range(6))


shapes = st.lists(st.integers(0, 6), min_size=0, max_size=3).map(tuple)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(-(2**63), 2**64 - 1), shape=shapes,
       dtype=st.sampled_from(["float32", "float64"]))
def test_draws_have_pytorchs_shapes_ranges_and_dtypes(seed, shape, dtype):
    gen = Generator(seed)
    for values in (gen.rand(shape, dtype), gen.uniform(shape, 2.0, 2.5, dtype)):
        assert values.shape == shape and values.dtype == np.dtype(dtype)
    assert np.all((0 <= gen.rand(shape, dtype)) & (gen.rand(shape, dtype) < 1))
    assert gen.randn(shape, dtype).shape == shape
    ints = gen.randint(-3, 4, shape, "int64")
    assert ints.dtype == np.int64 and np.all((-3 <= ints) & (ints < 4))
    assert set(np.unique(gen.bernoulli(0.5, shape, dtype)).tolist()) <= {0.0, 1.0}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), n=st.integers(0, 80))
def test_randperm_is_a_permutation(seed, n):
    perm = Generator(seed).randperm(n, "int64")
    assert sorted(perm.tolist()) == list(range(n))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), draws=st.lists(st.integers(0, 40), max_size=6))
def test_state_restores_any_position(seed, draws):
    gen = Generator(seed)
    for n in draws:
        gen.randn((n,), "float32")
    state = gen.get_state()
    expected = gen.rand((700,), "float64")  # crosses a twist
    gen.set_state(state)
    assert _same_bits(gen.get_state(), state)
    assert _same_bits(gen.rand((700,), "float64"), expected)
