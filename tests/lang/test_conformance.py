"""Script mode reproduces the shared conformance cases recorded from PyTorch 2.13 (tests/data/conformance)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

CASES = Path(__file__).resolve().parent.parent / "data" / "conformance"
ADDR = re.compile(r"0x[0-9a-fA-F]+")


def norm(text):
    text = ADDR.sub("0xADDR", text)
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


@pytest.mark.parametrize("case", sorted(p.stem for p in CASES.glob("*.py")))
def test_case_matches_pytorch(case):
    base = CASES / case
    p = subprocess.run([sys.executable, "-m", "gradrepl", "run", str(base) + ".py"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert norm(p.stdout) == norm((CASES / f"{case}.out").read_text())
    want_rc = int((CASES / f"{case}.rc").read_text())
    assert (p.returncode == 0) == (want_rc == 0), p.stderr
    if want_rc:
        want_err = (CASES / f"{case}.err").read_text().strip()
        assert want_err in [line.strip() for line in p.stderr.splitlines()]
    assert "Traceback" not in p.stderr
