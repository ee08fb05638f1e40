"""Each shipped exercise rejects the mistake a learner is likely to make.

(That the reference solutions pass is `gradrepl lesson --check`, in test_lesson_cli.py.)
"""
import pytest

from gradrepl.tutor.check import check_state
from gradrepl.tutor.lesson import find_lesson
from gradrepl.tutor.lesson import Exercise, load_all
from gradrepl.tutor.player import replay
from gradrepl.tutor.runner import SandboxRunner

LESSONS = load_all()

# (lesson id, exercise number in the lesson from 1, a plausible wrong answer)
WRONG_ANSWERS = [
    ("autograd-tutorial", 1, "w = torch.tensor([1., 2., 3.])\ns = (w * w).sum()"),
    ("autograd-tutorial", 2, "x2 = torch.tensor([0., 1., 2.], requires_grad=True)\nout2 = (3 * (x2 + 2) ** 2).mean()"),
    ("autograd-tutorial", 3, "p = torch.tensor([1., 2., 3.], requires_grad=True)\nq = p ** 2\nq.backward(torch.ones(3))"),
    ("autograd-tutorial", 4, "e = x2 * 10"),
    ("variable-to-tensor", 1, "t = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)\ng = torch.sin(t) * t\n"
                              "g.backward(torch.ones_like(g))\ndg = torch.cos(t) * t"),
    ("variable-to-tensor", 2, "w = torch.ones(3, requires_grad=True)\nloss = (w * x[:3]).sum()"),
    ("variable-to-tensor", 3, "k = torch.tensor([3.], requires_grad=True)\n(k ** 2).backward()"),
    ("graphs-jacobians-detach", 1, "a = torch.tensor([1., 2.], requires_grad=True)\nh = a * 3\n"
                                   "s = (h ** 2).sum()\ns.backward()"),
    ("graphs-jacobians-detach", 2, "k = torch.tensor([2., 5.], requires_grad=True)\nr = (k ** 2).sum()\nr.backward()"),
    ("graphs-jacobians-detach", 3, "x3 = torch.ones(2, requires_grad=True)\ny3 = x3 ** 2 + 3\n"
                                   "z3 = y3.detach_() * x3\nz3.sum().backward()"),
    ("train-by-hand", 1, "gw = (2 * (pred - ys) * xs).mean()\ngb = (2 * (pred - ys)).mean()"),
    ("train-by-hand", 2, "ys2 = -3 * xs + 0.5\nw2 = torch.zeros(1, requires_grad=True)\n"
                         "b2 = torch.zeros(1, requires_grad=True)\nfor step in range(500):\n"
                         "    loss2 = ((w2 * xs + b2 - ys2) ** 2).mean()\n    loss2.backward()\n"
                         "    with torch.no_grad():\n        w2 -= 0.05 * w2.grad\n        b2 -= 0.05 * b2.grad"),
    ("train-by-hand", 3, "u = torch.tensor([1.5], dtype=torch.float64, requires_grad=True)\n"
                         "auto = 3 * u ** 2 * torch.exp(u)\nh = 1e-6\n"
                         "numeric = ((u + h) ** 3 * torch.exp(u + h) - (u - h) ** 3 * torch.exp(u - h)) / (2 * h)"),
    ("inside-backward", 1, "c = torch.tensor([1., -2., 3.], requires_grad=True)\n(c ** 3).sum().backward()"),
    ("inside-backward", 2, "r = torch.tensor(2.0, requires_grad=True)\n(d1,) = torch.autograd.grad(r ** 4, r)"),
    ("inside-backward", 3, "class Cube(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, t):\n"
                           "        ctx.save_for_backward(t)\n        return t * t * t\n\n    @staticmethod\n"
                           "    def backward(ctx, grad):\n        (t,) = ctx.saved_tensors\n        return grad * 3 * t\n\n"
                           "q = torch.tensor([1., 2.], requires_grad=True)\nout = Cube.apply(q)\nout.sum().backward()"),
]


def test_every_exercise_has_a_wrong_answer_here():
    covered = {(lesson_id, number) for lesson_id, number, _ in WRONG_ANSWERS}
    expected = {(lesson.id, n) for lesson in LESSONS for n in range(1, len(lesson.exercises) + 1)}
    assert covered == expected


@pytest.mark.parametrize("lesson_id, number, wrong", WRONG_ANSWERS,
                         ids=[f"{lesson_id}-{number}" for lesson_id, number, _ in WRONG_ANSWERS])
def test_a_likely_mistake_fails_the_check(lesson_id, number, wrong):
    lesson = find_lesson(LESSONS, lesson_id)
    index = [i for i, step in enumerate(lesson.steps) if isinstance(step, Exercise)][number - 1]
    exercise = lesson.steps[index]
    for answer, should_pass in ((wrong, False), (exercise.solution, True)):  # the solution: a control
        runner = SandboxRunner()
        replay(lesson, runner, index)
        runner.run(answer)
        assert check_state(exercise.check, dict(runner.namespace)).passed is should_pass
