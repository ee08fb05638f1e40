"""`gradrepl graph|explain|gradcheck FILE NAME`: output, files written, exit statuses."""
import shutil
import subprocess
import sys

import pytest
from viz_cases import DATA
from viz_dot_parser import parse

from gradrepl.viz import cli
from gradrepl.viz import graph as G

CASE = str(DATA / "cases" / "004_out.py")
CASE_TEXT = (DATA / "cases" / "004_out.py").read_text(encoding="utf-8")


def test_graph_dot_on_stdout_program_output_on_stderr(tmp_path, capsys):
    assert cli.main(["graph", CASE, "out", "--format", "dot"]) == 0
    out, err = capsys.readouterr()
    assert parse(out).nodes["n0"]["label"].startswith("out")
    assert out == (DATA / "expected" / "004_out.dot").read_text(encoding="utf-8")
    noisy = tmp_path / "noisy.py"
    noisy.write_text(CASE_TEXT + "print(z, out)\nout\n")
    assert cli.main(["graph", str(noisy), "out", "--format", "dot"]) == 0
    out, err = capsys.readouterr()
    assert out == (DATA / "expected" / "004_out.dot").read_text(encoding="utf-8")
    assert "tensor(27., grad_fn=<MeanBackward0>)" in err     # the file's own print and echo


def test_graph_text_and_mermaid(capsys):
    assert cli.main(["graph", CASE, "out", "--width", "100"]) == 0
    assert capsys.readouterr().out == (DATA / "expected" / "004_out.txt").read_text(encoding="utf-8")
    assert cli.main(["graph", CASE, "out", "-f", "mermaid"]) == 0
    assert capsys.readouterr().out.startswith("graph BT;\n")


def test_graph_to_a_file_by_suffix(tmp_path, capsys):
    target = tmp_path / "g.mmd"
    assert cli.main(["graph", CASE, "z", "-o", str(target)]) == 0
    assert target.read_text().startswith("graph BT;")
    assert f"wrote {target}" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graph_svg(tmp_path):
    target = tmp_path / "g.svg"
    assert cli.main(["graph", CASE, "out", "-o", str(target)]) == 0
    assert b"<svg" in target.read_bytes()


def test_svg_without_graphviz_names_the_package(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(G.shutil, "which", lambda name: None)
    assert cli.main(["graph", CASE, "out", "-o", str(tmp_path / "g.png")]) == 1
    assert "install the Debian package `graphviz`" in capsys.readouterr().err
    assert not (tmp_path / "g.png").exists()


def test_explain(capsys):
    assert cli.main(["explain", CASE, "out"]) == 0
    out = capsys.readouterr().out
    assert "x.grad = [[4.5000, 4.5000], [4.5000, 4.5000]]" in out
    assert "d out / d x_i = 3/2 (x_i + 2)" in out


def test_gradcheck_pass_and_fail(monkeypatch, capsys):
    assert cli.main(["gradcheck", CASE, "out"]) == 0
    assert "passed" in capsys.readouterr().out
    assert cli.main(["gradcheck", str(DATA / "cases" / "001_detach.py"), "s", "--width", "100"]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "x: autograd [4., 4.]\n   numeric  [6.0000, 6.0000]\n" in out


def test_gradcheck_with_a_vector(capsys):
    assert cli.main(["gradcheck", str(DATA / "cases" / "004_while.py"), "y", "--vector", "v"]) == 0
    out = capsys.readouterr().out
    assert "sum(v * y)" in out and "passed" in out


@pytest.mark.parametrize("args, status, message", [
    (["graph", CASE, "nope"], 1, "name 'nope' is not defined"),
    (["graph", CASE, "ouy"], 1, "did you mean 'out'"),
    (["explain", CASE, "x"], 1, "is a leaf"),
    (["graph", "/nonexistent.py", "x"], 2, "cannot read"),
    (["graph", CASE], 2, "required"),
    (["graph", CASE, "out", "--format", "gif"], 2, "invalid choice"),
])
def test_errors(args, status, message, capsys):
    assert cli.main(args) == status
    assert message in capsys.readouterr().err


def test_error_in_the_file_is_reported_like_script_mode(tmp_path, capsys):
    bad = tmp_path / "bad.py"
    bad.write_text("x = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()\n")
    assert cli.main(["graph", str(bad), "y"]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:4" in err and "RuntimeError: Trying to backward through the graph a second time" in err


def test_dispatched_by_the_gradrepl_command():
    pytest.importorskip("gradrepl.cli")
    done = subprocess.run([sys.executable, "-m", "gradrepl", "graph", CASE, "out", "--format", "mermaid"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("graph BT;") and "Traceback" not in done.stderr


AFTER_BACKWARD = CASE_TEXT + "out.backward()\nprint(x.grad)\n"


@pytest.mark.parametrize("command, name, expected", [
    ("explain", "out", "x.grad = [[4.5000, 4.5000], [4.5000, 4.5000]]"),
    ("explain", "z", "x.grad = [[18., 18.], [18., 18.]]"),
    ("gradcheck", "out", "passed"),
    ("gradcheck", "y", "passed"),
    ("graph", "out", "MeanBackward0"),
])
def test_commands_work_on_a_file_that_already_ran_backward(tmp_path, capsys, command, name, expected):
    """Issue 17: nearly every real file calls backward(); the tools replay the kept values."""
    script = tmp_path / "tutorial.py"
    script.write_text(AFTER_BACKWARD)
    assert cli.main([command, str(script), name, "--width", "100"]) == 0
    out, err = capsys.readouterr()
    assert expected in out
    assert "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])" in err     # the file's own print


def test_a_graph_changed_in_place_is_a_sentence_not_an_internal_error(tmp_path, capsys):
    script = tmp_path / "loop.py"
    script.write_text("w = torch.ones(3, requires_grad=True)\nfor step in range(2):\n"
                      "    loss = (w * w).sum()\n    loss.backward()\n    with torch.no_grad():\n"
                      "        w -= 0.1 * w.grad\n        w.grad.zero_()\n")
    for command in ("explain", "gradcheck"):
        assert cli.main([command, str(script), "loss"]) == 1
        err = capsys.readouterr().err
        assert f"gradrepl {command}: w changed in place after loss was computed" in err
        assert "internal error" not in err
