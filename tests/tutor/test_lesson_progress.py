"""Progress file: atomic writes, reload, damaged files, unwritable locations; the player model."""
import json

import pytest

from gradrepl.messages import default_lang
from gradrepl.tutor.lesson import find_lesson
from gradrepl.tutor.lesson import Exercise, load_all
from gradrepl.tutor.player import Player
from gradrepl.tutor.progress import LessonProgress, ProgressStore


def test_progress_is_saved_and_read_back(tmp_path):
    path = tmp_path / "deep" / "progress.json"
    store = ProgressStore(path)
    assert store.get("x") == LessonProgress()
    assert store.update("x", LessonProgress(step=3, total=10, solved=[2]))
    assert store.warning is None
    assert ProgressStore(path).get("x") == LessonProgress(step=3, total=10, solved=[2])
    assert json.loads(path.read_text())["lessons"]["x"]["step"] == 3
    assert [p.name for p in path.parent.iterdir()] == ["progress.json"]  # no temporary left behind


def test_a_damaged_file_or_entry_gives_a_warning_not_a_crash(tmp_path):
    path = tmp_path / "progress.json"
    path.write_text("{not json")
    store = ProgressStore(path)
    assert "could not read" in store.warning and store.lessons == {}
    path.write_text(json.dumps({"lessons": {"a": {"step": "x"}, "b": {"step": 1, "total": 4}}}))
    assert ProgressStore(path).lessons == {"b": LessonProgress(step=1, total=4)}


def test_an_unwritable_location_gives_a_warning(tmp_path):
    blocker = tmp_path / "home"
    blocker.write_text("a file where the data directory should be")  # fails even for root
    store = ProgressStore(blocker / "gradrepl" / "progress.json")
    assert store.update("x", LessonProgress(step=1, total=2)) is False
    assert "could not save lesson progress" in store.warning
    assert store.get("x").step == 1  # kept in memory for this session


def test_describe_progress_in_both_languages():
    assert LessonProgress().describe() == ("-", "-")
    assert LessonProgress(step=2, total=9).describe() == ("step 3/9", "第 3/9 步")
    assert LessonProgress(finished=True).describe() == ("done", "已完成")


def test_player_moves_hints_progressively_and_resumes():
    lesson = find_lesson(load_all(), "autograd-tutorial")
    player = Player(lesson, "zh")
    assert not player.back()
    while not isinstance(player.step, Exercise):
        assert player.advance()
    first, second = player.next_hint(), player.next_hint()
    assert first == lesson.steps[player.position].hints[0].zh and second != first
    assert player.next_hint() is None
    assert "requires_grad=True" in player.solution()
    saved = player.progress()
    resumed = Player(lesson, "en", saved)
    assert resumed.position == player.position
    assert Player(lesson, "en", LessonProgress(step=5, total=999)).position == 0  # lesson changed: start over
    resumed.restart()
    assert resumed.position == 0 and not resumed.solved
    with pytest.raises(ValueError):
        resumed.next_hint()


def test_lesson_lookup_and_language_default():
    lessons = load_all()
    assert find_lesson(lessons, "3").id == "graphs-jacobians-detach"
    assert find_lesson(lessons, "03").id == "graphs-jacobians-detach"
    assert find_lesson(lessons, "train").id == "train-by-hand"
    assert find_lesson(lessons, "nope") is None
    assert default_lang({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert default_lang({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"}) == "en"
    assert default_lang({"LC_ALL": "", "LANG": "zh_TW"}) == "zh"
    assert default_lang({}) == "en"


def test_a_lesson_is_found_by_its_file_name_too():
    from gradrepl.tutor.lesson import load_all
    lessons = load_all()
    first = lessons[0]
    assert find_lesson(lessons, f"{first.number:02d}-{first.id}") is first
    assert find_lesson(lessons, f"{first.number:02d}-{first.id}.md") is first
    assert find_lesson(lessons, "no-such-lesson") is None
