"""scripts/difftest.py without PyTorch: its programs are reproducible, parse, run under
gradrepl without internal errors, and the comparison flags real differences only."""
import ast
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("difftest", ROOT / "scripts" / "difftest.py")
difftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(difftest)


def test_same_seed_same_programs_and_they_parse():
    first = difftest.generate(3, 20)
    assert first == difftest.generate(3, 20)
    assert first != difftest.generate(4, 20)
    for src in first:
        ast.parse(src)


def test_generated_programs_never_hit_an_internal_error():
    for src in difftest.generate(11, 30):
        got = difftest.run_gradrepl(src)
        assert not got["internal"], (src, got["err"])


def test_compare_masks_addresses_and_checks_error_lines():
    want = {"out": "<MulBackward0 object at 0x7f00>\n", "err": "", "line": 0}
    assert difftest.compare(want, {"out": "<MulBackward0 object at 0x55aa>\n", "err": "", "line": 0}) == []
    assert difftest.compare(want, {"out": "<AddBackward0 object at 0x55aa>\n", "err": "", "line": 0}) == ["stdout"]
    failing = {"out": "", "err": "RuntimeError: boom", "line": 2}
    assert difftest.compare(failing, {"out": "", "err": "RuntimeError: bang", "line": 2}) == ["error"]
    assert difftest.compare(failing, {"out": "", "err": "", "line": 0}) == ["error"]


def test_learner_programs_are_reproducible_parse_and_cover_the_themes():
    programs = difftest.generate(5, 60, "learner")
    assert programs == difftest.generate(5, 60, "learner")
    for src in programs:
        ast.parse(src)
    text = "\n".join(programs)
    for theme in ("nn.Sequential(", "class ", "DataLoader(", "lr_scheduler.", "torch.no_grad()", "set_printoptions",
                  "except ", "state_dict()", "register_hook", "[torch.tensor("):
        assert theme in text, theme


def test_learner_programs_never_hit_an_internal_error():
    for src in difftest.generate(12, 25, "learner"):
        got = difftest.run_gradrepl(src)
        assert not got["internal"], (src, got["err"])


def test_buckets_name_the_first_differing_line_or_last_digits():
    want = {"out": "epoch 0\n0.7201627492904663\n", "err": "", "line": 0}
    assert difftest.bucket(want, {"out": "epoch 0\n0.7201627790927887\n", "err": "", "line": 0}) == "last digits only"
    assert difftest.bucket(want, {"out": "epoch 1\n0.72\n", "err": "", "line": 0}) == "out: 'epoch 0' vs 'epoch 1'"
    failing = {"out": "epoch 0\n0.7201627492904663\n", "err": "RuntimeError: boom", "line": 3}
    assert difftest.bucket(failing, want).startswith("err: 'RuntimeError: boom' vs ''")
