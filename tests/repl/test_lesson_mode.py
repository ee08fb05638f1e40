"""`:lesson NAME` plays a lesson inside the REPL (tests/data/repl/lessons/01-tiny.md)."""
import json
import os
from pathlib import Path


def progress():
    path = Path(os.environ["XDG_DATA_HOME"]) / "gradrepl" / "lesson-progress.json"
    return json.loads(path.read_text())["lessons"]["tiny"]


def test_play_a_lesson_with_hints_and_checks(drive):
    out = drive(":lesson tiny\r\r\r\r\r:hint\r:hint\r:hint\rs = (x ** 2).sum()\r\r"
                "s = (x ** 2).sum()\rs.backward()\r\r")
    assert "1. A tiny lesson" in out and "Some prose." in out
    # code steps run in the learner's session with the tutor displays
    assert out.count("tensor([1., 1.], requires_grad=True)") == 1   # rebuilding an attempt is quiet
    assert out.count("x: shape (2,)  requires_grad=True  is_leaf=True  grad_fn=None") == 1
    assert "<SumBackward0 object at 0x" in out
    assert "Exercise: Square it" in out
    assert out.count("Type your answer (one or more lines") == 1
    assert out.count("Type your answer first") == 1             # Enter before any answer
    assert "s = (x ** 2).sum()\nThen s.backward().\nNo more hints" in out
    # the first attempt is checked when submitted: x.grad is still None
    first, second = out.split("s: requires_grad=True", 1)[1].split("✓ check passed")
    assert "✗ check failed\n  - x.grad is None" in first
    assert "Your next try starts from the lesson's state again" in first
    assert "Lesson finished. Well done!" in second
    assert "UserWarning" not in out          # the check's own reads of s.grad stay silent
    assert progress()["finished"] is True
    assert drive.repl.lesson is None


def test_quit_resume_back_restart_skip(drive):
    out = drive(":lesson tiny\r\r\r:quit\r")
    assert "Progress saved; :lesson tiny resumes here." in out
    assert progress()["step"] == 2
    out = drive(":lesson 1\r\r:back\r:restart\r\r\r\r:solution\r:skip\r")
    # resumed at step 3: the earlier code ran quietly, so x exists for this step
    assert out.index("<SumBackward0 object at 0x") < out.index("(this step already ran)")
    assert "requires_grad=True)\n" not in out.split("<SumBackward0")[0]
    solution = out[out.index("Exercise: Square it"):out.index("Skipped")]
    assert "s = (x ** 2).sum()" in solution and "s.backward()" in solution    # :solution
    assert "Skipped; the reference solution was run" in out
    assert out.rstrip().endswith("Lesson finished. Well done!")


def test_lesson_commands_need_a_lesson(drive):
    out = drive(":hint\r:lesson\r:lesson nope\r")
    assert ":hint: no lesson is running; start one with :lesson NAME" in out
    assert "tiny" in out and "A tiny lesson" in out
    assert ":lesson: no lesson named 'nope' (known: tiny)" in out


def test_lesson_code_is_untrusted(drive, tmp_path):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    source = (Path(__file__).parents[1] / "data" / "repl" / "lessons" / "01-tiny.md").read_text()
    (lessons / "01-tiny.md").write_text(source.replace("print(x)\n", "print(x)\nexit()\n", 1))
    out = drive(":lesson tiny\r\rstill_here = 1\r", lessons_dir=lessons)
    assert "NameError: name 'exit' is not defined" in out
    assert "still_here = 1" in out


def test_the_repl_can_open_with_a_lesson(drive):
    out = drive("\r", lesson="tiny")
    assert out.index("1. A tiny lesson") < out.index("x = torch.ones(2, requires_grad=True)")
    assert drive.repl.lesson is not None and drive.repl.lesson.player.position == 1


def test_reset_in_a_lesson_offers_a_restart(drive):
    out = drive(":lesson tiny\r\r\r:reset\rn\r(x * 3).sum().grad_fn\r:reset\ry\r")
    # (the question goes to the prompt's output) no: the session is rebuilt as the lesson has it, so the lesson's x is still there
    assert "The session was rebuilt as the lesson has it at this step." in out
    assert "NameError" not in out
    # yes: the lesson starts again at step 1
    assert drive.repl.lesson is not None and drive.repl.lesson.player.position == 0


def test_a_lesson_starts_in_a_fresh_session(drive):
    out = drive("s = 5\r:lesson tiny\rs\r")
    assert "NameError: name 's' is not defined" in out


def test_a_finished_lesson_keeps_its_progress_unless_started_over(drive):
    drive(":lesson tiny\r\r\r\r:skip\r")
    assert progress()["finished"] is True
    out = drive(":lesson tiny\r\r:quit\r")          # Enter: no, do not start over
    assert "Going through the lesson again; it stays finished" in out
    assert progress()["finished"] is True and progress()["solved"] == []
    drive(":lesson tiny\ry\r:quit\r")
    assert progress()["finished"] is False


def test_predict_tool_and_a_counted_exercise_in_the_repl(drive):
    steps = Path(__file__).parents[1] / "data" / "tutor" / "steps"
    out = drive(":lesson steps\r2\r\r:graph y\r\ry.backward(torch.ones(2))\r(x * x).backward(torch.ones(2))\r\r"
                "y.backward(torch.ones(2), retain_graph=True)\ry.backward(torch.ones(2))\r\r",
                lessons_dir=steps)
    assert "Predict before it runs: What is y's grad_fn?" in out and "Right." in out
    assert out.index("y = x * x is a multiplication.") < out.index("tensor([1., 4.], grad_fn=<MulBackward0>)")
    # the tool step: the learner types :graph y at the prompt, then Enter goes on
    assert "Your turn: type :graph y at the prompt (Enter shows it for you)." in out
    assert "» :graph y" not in out and "AccumulateGrad" in out
    assert "backward reached y once; the task needs it reached twice" in out
    assert "✓ check passed" in out and "Lesson finished. Well done!" in out


def test_enter_at_a_tool_step_shows_it_for_the_learner(drive):
    steps = Path(__file__).parents[1] / "data" / "tutor" / "steps"
    out = drive(":lesson steps\r1\r\r\r\r", lessons_dir=steps)
    assert "Your turn: type :graph y" in out
    assert "» :graph y" in out and "AccumulateGrad" in out
    assert "Exercise: Twice" in out


def test_tools_at_the_prompt_do_not_count_as_backward_passes(drive):
    steps = Path(__file__).parents[1] / "data" / "tutor" / "steps"
    out = drive(":lesson steps\r1\r\r\r\ry.backward(torch.ones(2), retain_graph=True)\r"
                "y.backward(torch.ones(2))\r:explain y\r:jacobian y x\r\r", lessons_dir=steps)
    assert "Chain rule for y" in out and "Jacobian d y / d x" in out
    assert "✓ check passed" in out and "backward reached y" not in out
