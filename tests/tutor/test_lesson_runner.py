"""Lesson code runs untrusted in the sandbox; output is script mode's, errors end a step."""
from gradrepl.lang import Session
from gradrepl.tutor.runner import SandboxRunner


def test_output_echo_and_error_line_as_script_mode_prints_them():
    runner = SandboxRunner()
    assert runner.run("x = torch.ones(2)\nx * 2\nprint('done')") == "tensor([2., 2.])\ndone\n"
    assert runner.run("x.sum().backward()\nprint('not reached')") == (
        "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n")
    assert runner.namespace["x"].tolist() == [1.0, 1.0]


def test_lesson_code_is_untrusted():
    runner = SandboxRunner()
    assert runner.run("exit()").startswith("NameError: name 'exit' is not defined")
    assert runner.run("import os").startswith("ImportError")
    assert runner.run(":load /etc/passwd").startswith("SyntaxError")


def test_a_repl_session_keeps_its_writer_and_can_see_the_output_too():
    shown = []
    session = Session(write=shown.append)
    runner = SandboxRunner(session, tee=True)
    assert runner.run("print(1 + 1)") == "2\n"
    assert "".join(shown) == "2\n"
    session.write("after\n")
    assert "".join(shown).endswith("after\n")
    assert SandboxRunner(session).run("print(3)") == "3\n" and "3" not in "".join(shown)


def test_reset_forgets_the_variables():
    runner = SandboxRunner()
    runner.run("k = torch.ones(1)")
    runner.reset()
    assert "k" not in runner.namespace
    assert runner.run("k").startswith("NameError: name 'k' is not defined")


def test_hints_for_errors_are_kept_apart_from_the_output():
    runner = SandboxRunner()
    out = runner.run("y = torch.ones(2, requires_grad=True) * 2\ny.backward()")
    assert out == "RuntimeError: grad can be implicitly created only for scalar outputs\n"
    assert any("ones_like" in hint for hint in runner.last_hints)
    runner.run("print(1)")
    assert runner.last_hints == []
