"""Every shipped exercise, judged both ways (tests/data/tutor/exercise_answers.toml).

Each answer is a learner's whole attempt: a session rebuilt from the lesson's steps, the
answer, then the check on the state it left (gradrepl.tutor.player.judge). Right answers
written differently pass; the shortcuts that skip the idea fail. That the reference
solutions pass is `gradrepl lesson --check` (test_lesson_cli.py).
"""
import tomllib
from pathlib import Path

import pytest

from gradrepl.tutor.lesson import Exercise, find_lesson, load_all
from gradrepl.tutor.player import judge, missing_needs
from gradrepl.tutor.runner import SandboxRunner

LESSONS = load_all()
ANSWERS = tomllib.loads((Path(__file__).parents[1] / "data" / "tutor" / "exercise_answers.toml")
                        .read_text(encoding="utf-8"))


def exercise_index(lesson_id, title):
    lesson = find_lesson(LESSONS, lesson_id)
    for index, step in enumerate(lesson.steps):
        if isinstance(step, Exercise) and step.title.en == title:
            return lesson, index
    raise LookupError(f"{lesson_id}: no exercise {title!r}")


CASES = [(lesson_id, title, answer, verdict)
         for lesson_id, exercises in ANSWERS.items()
         for title, answers in exercises.items()
         for verdict in ("pass", "fail")
         for answer in answers[verdict]]


def test_every_exercise_has_answers_both_ways():
    shipped = {(lesson.id, step.title.en) for lesson in LESSONS for step in lesson.exercises}
    listed = {(lesson_id, title) for lesson_id, exercises in ANSWERS.items() for title in exercises}
    assert listed == shipped
    for lesson_id, exercises in ANSWERS.items():
        for title, answers in exercises.items():
            assert len(answers["pass"]) >= 2 and len(answers["fail"]) >= 2, (lesson_id, title)


@pytest.mark.parametrize("lesson_id, title, answer, verdict", CASES,
                         ids=[f"{c[0]}:{c[1]}:{c[3]}{i}" for i, c in enumerate(CASES)])
def test_an_answer_is_judged_on_the_state_it_leaves(lesson_id, title, answer, verdict):
    lesson, index = exercise_index(lesson_id, title)
    if missing_needs(lesson):
        pytest.skip(f"{lesson_id} needs {missing_needs(lesson)}")
    result = judge(lesson, index, answer, SandboxRunner())
    assert result.passed is (verdict == "pass"), [f.en for f in result.failures]


def test_the_reference_solution_passes_judged_alone():
    for lesson in LESSONS:
        if missing_needs(lesson):
            continue
        for index, step in enumerate(lesson.steps):
            if isinstance(step, Exercise):
                assert judge(lesson, index, step.solution, SandboxRunner()).passed, (lesson.id, step.title.en)
