"""`gradrepl lesson ...`: --check over the shipped lessons, list, --auto, the line-based player."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gradrepl.tutor.cli import main
from gradrepl.tutor.display import make_console
from gradrepl.tutor.interactive import play
from gradrepl.tutor.lesson import load_lesson
from gradrepl.tutor.progress import ProgressStore

DATA = Path(__file__).resolve().parents[1] / "data" / "tutor"


@pytest.fixture(autouse=True)
def private_data_home(tmp_path, monkeypatch):
    """platformdirs puts progress under $XDG_DATA_HOME: keep the learner's real file out of tests."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path / "data"


def test_every_shipped_lesson_passes_check(capsys):
    """The equivalent of `gradrepl lesson --check`: outputs match, solutions pass, hints exist."""
    assert main(["--check"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    for lesson_id in ("autograd-tutorial", "variable-to-tensor", "graphs-jacobians-detach", "train-by-hand",
                      "inside-backward"):
        assert f"ok  {lesson_id}:" in out


def test_check_names_lesson_step_and_difference(capsys):
    assert main(["--check", "--dir", str(DATA / "bad")]) == 1
    err = capsys.readouterr().err
    assert "tiny: step 2 (line 23): output differs:" in err
    assert "-tensor([1., 1.])\n+tensor([1., 1.], requires_grad=True)" in err
    assert ("tiny: step 4 (line 40): reference solution fails its check: x.grad is [2., 2.], which is not "
            "what the task asks for (expected [2., 3.])") in err


def test_list_names_and_table_with_progress(capsys, private_data_home):
    assert main(["list", "--names"]) == 0
    assert capsys.readouterr().out.split() == [
        "autograd-tutorial", "variable-to-tensor", "graphs-jacobians-detach", "train-by-hand", "inside-backward",
        "modules-and-optimizers"]
    ProgressStore().update("variable-to-tensor", ProgressStore().get("x").__class__(step=4, total=21))
    assert main(["list", "--lang", "zh"]) == 0
    table = capsys.readouterr().out
    assert "从 Variable 到 Tensor" in table and "第 5/21 步" in table
    assert main(["list", "--lang", "en"]) == 0
    assert "step 5/21" in capsys.readouterr().out


def test_usage_errors_exit_2(capsys):
    assert main(["no-such-lesson"]) == 2
    assert "no lesson named 'no-such-lesson'" in capsys.readouterr().err
    assert main(["no-such-lesson", "--lang", "zh"]) == 2
    assert "错误：没有名为 'no-such-lesson' 的课程（已有：autograd-tutorial" in capsys.readouterr().err
    assert main(["--lang", "fr", "list"]) == 2
    assert main(["1", "2"]) == 2


def test_auto_plays_every_step_without_input(capsys):
    assert main(["tiny", "--auto", "--dir", str(DATA / "good"), "--lang", "zh"]) == 0
    out = capsys.readouterr().out
    assert "一些文字。" in out and "Some" not in out
    assert "│ x = torch.ones(2, requires_grad=True)\n│ print(x)\ntensor([1., 1.], requires_grad=True)" in out
    assert "提示 2：然后 s.backward()。" in out and "参考答案：\n" in out and "✓ 检查通过" in out
    assert main(["tiny", "--auto", "--dir", str(DATA / "bad")]) == 1


def answers(*lines):
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return read


def test_line_player_checks_state_gives_hints_and_saves_progress(tmp_path):
    lesson = load_lesson(DATA / "good" / "01-tiny.md")
    store = ProgressStore(tmp_path / "p.json")
    console = make_console()
    with console.capture() as cap:
        status = play(lesson, "en", answers(
            "", "", "",                       # prose, two code steps
            "",                               # Enter before any answer: nothing to check
            ":hint", "s = (x * 2).sum()", "", # a wrong answer, checked: the check says why
            ":hint", ":hint",
            "s = x.pow(2).sum()", "",         # right value, but no backward yet
            "s = x.pow(2).sum()",             # a whole answer over two lines ...
            "s.backward()", "",               # ... checked once, on the state it left
        ), console=console, store=store)
    out = cap.get()
    assert status == 0
    assert "Hint" not in out  # hints print their text, not a label
    assert "s = (x ** 2).sum()" in out and "Then s.backward()." in out and "No more hints" in out
    assert "Type your answer first" in out
    # feedback says what is off, never the expected numbers
    assert "✗ check failed\n  - s is 4., which is not what the task asks for\n  - x.grad is None\n" in out
    assert "✗ check failed\n  - x.grad is None\n" in out
    assert "expected 2." not in out and "[2., 2.]" not in out
    assert out.count("Your next try starts from the lesson's state again") == 2
    assert out.count("✓ check passed") == 1 and "Lesson finished" in out
    assert json.loads((tmp_path / "p.json").read_text())["lessons"]["tiny"]["finished"] is True


def test_each_attempt_starts_from_the_lessons_state(tmp_path):
    """The variables of a failed try are gone: a backward from it cannot add to the next."""
    lesson = load_lesson(DATA / "good" / "01-tiny.md")
    console = make_console()
    with console.capture() as cap:
        play(lesson, "en", answers(
            "", "", "",
            "s = (x ** 2).sum()", "s.backward()", "s = x * 2", "",   # x.grad right, s wrong
            "s = (x ** 2).sum()", "",         # would pass if x.grad had survived: it does not
            "s = (x ** 2).sum()", "s.backward()", "",
        ), console=console, store=ProgressStore(tmp_path / "p.json"))
    out = cap.get()
    first, second, third = out.split("✗ check failed")
    assert "s has shape [2]; expected shape []" in second
    assert "x.grad is None" in third.split("✓ check passed")[0]
    assert "Lesson finished" in out


def test_an_error_is_not_followed_by_a_pass(tmp_path):
    lesson = load_lesson(DATA / "good" / "01-tiny.md")
    console = make_console()
    with console.capture() as cap:
        play(lesson, "en", answers("", "", "", "s = (x ** 2).sum()", "s.backward()", "1/0", ":quit"),
             console=console, store=ProgressStore(tmp_path / "p.json"))
    out = cap.get()
    assert "ZeroDivisionError" in out and "check passed" not in out


def test_line_player_quits_and_resumes_where_it_stopped(tmp_path):
    lesson = load_lesson(DATA / "good" / "01-tiny.md")
    store = ProgressStore(tmp_path / "p.json")
    console = make_console()
    with console.capture():
        play(lesson, "en", answers("", "", ":quit"), console=console, store=store)
    assert store.get("tiny").step == 2
    with console.capture() as cap:
        status = play(lesson, "en", answers("y", "", ":skip"), console=console, store=store)
    out = cap.get()
    assert status == 0
    assert "(this step already ran)" not in out  # resumed at step 3: earlier code re-ran quietly
    assert "<SumBackward0 object at 0x" in out and "Skipped" in out
    assert store.get("tiny").finished


def test_gradrepl_lesson_runs_through_the_main_command(private_data_home):
    env = {**os.environ, "XDG_DATA_HOME": str(private_data_home)}
    proc = subprocess.run([sys.executable, "-m", "gradrepl", "lesson", "list", "--names"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[0] == "autograd-tutorial"


def test_line_player_back_restart_blocks_and_unknown_commands(tmp_path):
    lesson = load_lesson(DATA / "good" / "01-tiny.md")
    console = make_console()
    with console.capture() as cap:
        status = play(lesson, "zh", answers(
            "", ":back",                      # back to the prose
            "", "", "",                       # forward again: the code step is not re-run
            ":nope",
            "for i in range(2):",             # a block, ended by an empty line
            "    s = (x ** 2).sum()",
            "",
            "",                               # checked
            ":restart",                       # fresh session, step 1
            "", "", "", ":solution", ":quit",
        ), console=console, store=ProgressStore(tmp_path / "p.json"))
    out = cap.get()
    assert status == 0
    assert out.count("一些文字。") == 3                # shown again after :back and after :restart
    assert "（此步骤已运行）" in out
    assert "未知命令 :nope" in out
    assert "✗ 检查未通过\n  - x.grad 是 None\n" in out   # the block ran: s exists
    assert out.count("tensor([1., 1.], requires_grad=True)") == 2  # re-run after :restart only
    assert "│ s = (x ** 2).sum()\n│ s.backward()" in out
    assert "进度已保存" in out


def test_an_empty_lesson_directory_is_an_error_not_a_silent_pass(tmp_path, capsys):
    assert main(["--check", "--dir", str(tmp_path)]) == 1
    assert "no lesson files" in capsys.readouterr().err


def test_playing_in_a_real_terminal(private_data_home):
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "XDG_DATA_HOME": str(private_data_home), "LANG": "en_US.UTF-8", "TERM": "xterm"}
    child = pexpect.spawn(sys.executable, ["-m", "gradrepl", "lesson", "tiny", "--dir", str(DATA / "good")],
                          env=env, encoding="utf-8", timeout=120, dimensions=(40, 100))
    try:
        for _ in range(3):
            child.expect("Enter: continue")
            child.sendline("")
        child.expect(">>> ")
        child.sendline("s = (x ** 2).sum()")
        child.sendline("")
        child.expect("x.grad is None")
        child.sendline("s = (x ** 2).sum()")
        child.sendline("s.backward()")
        child.sendline("")
        child.expect("check passed")
        child.expect("Lesson finished")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


STEPS = DATA / "steps" / "01-steps.md"


def test_line_player_asks_the_question_shows_the_tool_and_counts_passes(tmp_path):
    lesson = load_lesson(STEPS)
    console = make_console()
    with console.capture() as cap:
        status = play(lesson, "zh", answers(
            "7", "1", "",                    # not a choice, then a wrong one; Enter
            "",                              # the tool step
            "y.backward(torch.ones(2))", "(x * x).backward(torch.ones(2))", "",   # y reached once
            "y.backward(torch.ones(2), retain_graph=True)", "y.backward(torch.ones(2))", "",
        ), console=console, store=ProgressStore(tmp_path / "p.json"))
    out = cap.get()
    assert status == 0
    assert "运行之前先预测：y 的 grad_fn 是什么？\n  1) PowBackward0\n  2) MulBackward0" in out
    assert "请回答 1 到 2 之间的数字。" in out and "不对：答案是 2。" in out
    assert out.index("y = x * x 是一次乘法。") < out.index("tensor([1., 4.], grad_fn=<MulBackward0>)")
    assert "» :graph y" in out and "MulBackward0" in out.split("» :graph y")[1]
    assert "反向传播到达 y 1 次；题目要求 2 次" in out
    assert "练习：两次" in out and "✓ 检查通过" in out and "课程完成" in out


def test_opening_a_finished_lesson_keeps_its_progress(tmp_path):
    lesson = load_lesson(DATA / "good" / "01-tiny.md")
    store = ProgressStore(tmp_path / "p.json")
    console = make_console()
    with console.capture():
        play(lesson, "en", answers("", "", "", "s = (x ** 2).sum()", "s.backward()", ""),
             console=console, store=store)
    assert store.get("tiny").finished and store.get("tiny").solved == [3]
    for opened in (answers(), answers(""), answers("n", "", ":quit")):   # piped, Enter (no), look and quit
        with console.capture() as cap:
            play(lesson, "en", opened, console=console, store=ProgressStore(tmp_path / "p.json"))
        again = ProgressStore(tmp_path / "p.json").get("tiny")
        assert again.finished and again.solved == [3], cap.get()
    with console.capture():
        play(lesson, "en", answers("y", ":quit"), console=console, store=ProgressStore(tmp_path / "p.json"))
    fresh = ProgressStore(tmp_path / "p.json").get("tiny")
    assert not fresh.finished and fresh.solved == []


def test_reset_in_the_line_player_offers_a_restart(tmp_path):
    lesson = load_lesson(DATA / "good" / "01-tiny.md")
    console = make_console()
    with console.capture() as cap:
        play(lesson, "en", answers("", "", ":reset", "",     # step 3: no restart, the step's state rebuilt
                                   "", ":reset", "y",        # at the exercise: yes, from step 1
                                   ":quit"),
             console=console, store=ProgressStore(tmp_path / "p.json"))
    out = cap.get()
    assert "The session was rebuilt as the lesson has it at this step." in out
    assert out.count("<SumBackward0 object at 0x") == 2 and "NameError" not in out
    assert out.count("Some prose.") == 2
    assert out.rstrip().endswith("Progress saved; `gradrepl lesson tiny` resumes here.")


def test_a_lesson_written_ahead_of_a_feature_is_skipped_not_failed(tmp_path, capsys):
    from gradrepl.tutor.player import missing_needs

    text = (DATA / "good" / "01-tiny.md").read_text(encoding="utf-8")
    (tmp_path / "01-tiny.md").write_text(
        text.replace('number = 1', 'number = 1\nneeds = ["torch.ones", "torch.optim.NoSuchOptimizer"]'),
        encoding="utf-8")
    lesson = load_lesson(tmp_path / "01-tiny.md")
    assert missing_needs(lesson) == ["torch.optim.NoSuchOptimizer"]
    assert main(["--check", "--dir", str(tmp_path)]) == 0
    assert "skip tiny: needs torch.optim.NoSuchOptimizer" in capsys.readouterr().out
    assert main(["tiny", "--dir", str(tmp_path)]) == 1
    assert "needs torch.optim.NoSuchOptimizer, which this gradrepl does not have yet" in capsys.readouterr().err
