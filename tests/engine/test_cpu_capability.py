"""engine/cpu.py: the capability PyTorch picks (environment, then the processor), and the
kernels' vector width following it."""
import subprocess
import sys

import pytest

from gradrepl.engine import cpu, kernels


@pytest.mark.parametrize("env, want", [({"GRADREPL_CPU_CAPABILITY": "avx2"}, "avx2"),
                                       ({"ATEN_CPU_CAPABILITY": "avx2"}, "avx2"),
                                       ({"GRADREPL_CPU_CAPABILITY": "AVX512", "ATEN_CPU_CAPABILITY": "avx2"}, "avx512"),
                                       ({"GRADREPL_CPU_CAPABILITY": "sse9", "ATEN_CPU_CAPABILITY": "avx2"}, "avx2")])
def test_the_environment_overrides_detection(monkeypatch, env, want):
    for var in cpu.ENV:
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert cpu.detect() == want


def test_detection_follows_the_processors_avx512_subsets(monkeypatch):
    for var in cpu.ENV:
        monkeypatch.delenv(var, raising=False)
    code = ("from numpy._core._multiarray_umath import __cpu_features__ as f\n"
            "print(all(f.get(k) for k in ('AVX512VL', 'AVX512BW', 'AVX512DQ', 'FMA3')))")
    has_avx512 = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                check=True).stdout.strip() == "True"
    assert cpu.detect() == ("avx512" if has_avx512 else "avx2")


def test_set_capability_sets_the_kernels_lanes():   # the conftest puts the capability back
    cpu.set_capability("avx2")
    assert (cpu.capability(), kernels.LANES) == ("avx2", 8)
    cpu.set_capability("avx512")
    assert (cpu.capability(), kernels.LANES) == ("avx512", 16)
