"""Golden cases recorded from PyTorch 2.13 / CPython (scripts/record_cases.py): user classes,
nn.Module subclasses, generators and the other Python features print the same, and fail
with the same error line."""
import pathlib
import re

import pytest

from gradrepl.engine import api
from gradrepl.lang import Session, run_source

CASES = pathlib.Path(__file__).parent.parent / "data" / "lang_cases"
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
    want_out = base.with_suffix(".out").read_text()
    want_err = base.with_suffix(".err").read_text().strip()
    want_rc = int(base.with_suffix(".rc").read_text())
    assert _norm("".join(out)) == _norm(want_out)
    assert result.ok == (want_rc == 0)
    assert [e.headline for e in result.errors] == ([want_err] if want_err else [])
