"""Shared helpers: the document cases (tests/data/viz/cases) run in fresh sessions."""
import json
import pathlib
import re

DATA = pathlib.Path(__file__).resolve().parent.parent / "data" / "viz"
CASES = sorted(p.stem for p in (DATA / "cases").glob("*.py"))
GOLDEN = json.loads((DATA / "torch_golden.json").read_text(encoding="utf-8"))


def case_source(case):
    return (DATA / "cases" / f"{case}.py").read_text(encoding="utf-8")


def case_header(case):
    first = case_source(case).splitlines()[0]
    vector = re.search(r"vector: (\w+)", first)
    return re.search(r"root: (\w+)", first).group(1), vector.group(1) if vector else None


def run_case(case):
    """A session that ran the case file; the session's statements are the file."""
    from gradrepl.lang import Session, run_source

    session = Session(write=lambda text: None)
    result = run_source(case_source(case), session, filename=f"{case}.py")
    assert result.ok, [e.headline for e in result.errors]
    return session
