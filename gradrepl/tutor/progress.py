"""Lesson progress, kept in one JSON file under platformdirs' user data dir.

Written atomically (temporary file + os.replace in the same directory), so a
crash never leaves half a file. An unreadable or unwritable location is not an
error for the learner: the store says why in `warning` and carries on in memory.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

FILE_NAME = "lesson-progress.json"


def default_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("gradrepl", appauthor=False)) / FILE_NAME


@dataclass
class LessonProgress:
    step: int = 0                  # index of the step to resume at
    total: int = 0                 # number of steps when last saved
    solved: list[int] = field(default_factory=list)   # step indexes of solved exercises
    finished: bool = False

    def describe(self) -> tuple[str, str]:
        """(en, zh) for the progress column of `lesson list`."""
        from gradrepl.messages import MESSAGES
        if self.finished:
            return MESSAGES["label.done"]
        if self.step == 0 and not self.solved:
            return "-", "-"
        en, zh = MESSAGES["label.at_step"]
        return en.format(step=self.step + 1, total=self.total), zh.format(step=self.step + 1, total=self.total)


class ProgressStore:
    def __init__(self, path: Path | None = None):
        self.path = path if path is not None else default_path()
        self.warning: str | None = None
        self.lessons: dict[str, LessonProgress] = {}
        self._load()

    def _load(self) -> None:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as e:
            self.warning = f"could not read lesson progress from {self.path}: {e}"
            return
        entries = raw.get("lessons", {}) if isinstance(raw, dict) else {}
        for lesson_id, entry in entries.items():
            try:
                self.lessons[lesson_id] = LessonProgress(
                    step=int(entry["step"]), total=int(entry["total"]),
                    solved=[int(i) for i in entry.get("solved", [])], finished=bool(entry.get("finished")))
            except (KeyError, TypeError, ValueError):
                continue  # one damaged entry does not cost the others

    def get(self, lesson_id: str) -> LessonProgress:
        return self.lessons.get(lesson_id, LessonProgress())

    def update(self, lesson_id: str, progress: LessonProgress) -> bool:
        """Record and save; False (with self.warning set) when the file cannot be written."""
        self.lessons[lesson_id] = progress
        data = {"version": 1, "lessons": {k: vars(v) for k, v in sorted(self.lessons.items())}}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".progress-", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, ensure_ascii=False, indent=1)
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as e:
            self.warning = f"could not save lesson progress to {self.path}: {e.strerror or e}"
            return False
        return True
