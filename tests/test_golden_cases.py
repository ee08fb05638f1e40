"""Golden cases recorded from real PyTorch 2.13 / CPython (scripts/record_cases.py): script
mode must print the same stdout, fail exactly when PyTorch failed, with its error line.

Each case runs in-process through run_source, the one entry point script mode uses.
tests/data/engine_cases: the engine and the tensor API; lang_cases: user classes,
generators and the other Python features; nn_cases: whole programs with torch.nn,
torch.optim and torch.utils.data (see the README there); learner_cases: short programs written as
students write them, mistakes included. These were recorded on an AVX512 machine (the
conftest pins that capability); avx2_cases were recorded where PyTorch runs its AVX2 kernels
and run with gradrepl emulating those (engine/cpu.py).
"""
import pathlib
import re

import numpy as np
import pytest

from gradrepl.engine import api, cpu
from gradrepl.lang import Session, run_source
from gradrepl.limits import Limits

DATA = pathlib.Path(__file__).parent / "data"
SUITES = ("engine_cases", "lang_cases", "nn_cases", "learner_cases", "avx2_cases")
ADDR = re.compile(r"0x[0-9a-fA-F]+")
# NumPy's own float64 sin/exp/pow take SVML's AVX512 code where the CPU has AVX512_SKX, and
# other last bits elsewhere: a case that prints NumPy arithmetic (the numpy facade runs the
# real NumPy) keeps the machine's numbers in CASE.numpy-avx2.out for a NumPy without AVX512.
NUMPY_AVX512 = np._core._multiarray_umath.__cpu_features__.get("AVX512_SKX", False)
# MKL takes its AVX512 code where the processor has AVX512_SKX too: LAPACK's QR
# (torch.linalg.qr, nn.init.orthogonal_) gives other last bits without it, kept in
# CASE.mkl-avx2.out (recorded on an AVX2 machine).


def _norm(text):
    text = ADDR.sub("0xADDR", text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


@pytest.fixture(autouse=True)
def default_threads():
    """Each case starts, as a fresh `python CASE.py` did when it was recorded, with the
    default thread count (a case calling torch.set_num_threads must not leak into the next:
    element-wise kernels and sums above 32768 elements depend on it)."""
    threads = api.TORCH["get_num_threads"]()
    yield
    api.TORCH["set_num_threads"](threads)


@pytest.mark.parametrize("base", sorted(p.with_suffix("") for suite in SUITES for p in (DATA / suite).glob("*.py")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case_matches_pytorch(base):
    # the CPU capability the case was recorded with (the conftest puts it back)
    cpu.set_capability("avx2" if base.parent.name == "avx2_cases" else "avx512")
    out = []
    # as `gradrepl run CASE.py`: no step or time budget (a training loop may run for seconds
    # on a busy machine)
    session = Session(limits=Limits.open_ended(), write=out.append)
    api.reset_state()
    result = run_source(base.with_suffix(".py").read_text(), session, filename=f"{base.name}.py")
    want_err = base.with_suffix(".err").read_text().strip()
    want_rc = int(base.with_suffix(".rc").read_text())
    want_out = base.with_suffix(".out")
    if not NUMPY_AVX512 and base.with_suffix(".numpy-avx2.out").exists():
        want_out = base.with_suffix(".numpy-avx2.out")
    if not NUMPY_AVX512 and base.with_suffix(".mkl-avx2.out").exists():
        want_out = base.with_suffix(".mkl-avx2.out")
    if not want_out.exists():
        pytest.skip("MKL's AVX2 bits only: recorded on an AVX2 machine")
    assert _norm("".join(out)) == _norm(want_out.read_text())
    assert result.ok == (want_rc == 0)
    # the recorder strips the line (NumPy's broadcast message ends in a space)
    assert [e.headline.rstrip() for e in result.errors] == ([want_err] if want_err else [])
