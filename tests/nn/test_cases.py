"""Whole programs (tutorial code, training loops) recorded from real PyTorch 2.13 with
scripts/record_cases.py: script mode must print the same stdout, fail exactly when PyTorch
failed, with PyTorch's error line. The cases live in tests/data/nn_cases (README there)."""
import pathlib
import re

import pytest

from gradrepl.engine import api
from gradrepl.lang import Session, run_source

CASES = pathlib.Path(__file__).parent.parent / "data" / "nn_cases"
ADDR = re.compile(r"0x[0-9a-fA-F]+")


def _norm(text):
    text = ADDR.sub("0xADDR", text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


@pytest.mark.parametrize("case", sorted(p.stem for p in CASES.glob("*.py")))
def test_case_matches_pytorch(case):
    base = CASES / case
    out = []
    session = Session(write=out.append)
    api.reset_state()
    result = run_source(base.with_suffix(".py").read_text(), session, filename=f"{case}.py")
    want_rc = int(base.with_suffix(".rc").read_text())
    want_err = base.with_suffix(".err").read_text().strip()
    assert _norm("".join(out)) == _norm(base.with_suffix(".out").read_text())
    assert result.ok == (want_rc == 0)
    if want_err:
        assert [e.headline for e in result.errors] == [want_err]
