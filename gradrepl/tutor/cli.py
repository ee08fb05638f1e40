"""`gradrepl lesson ...`: list, check, auto-play and play lessons.

    gradrepl lesson list [--names]      table of lessons (or ids, one per line)
    gradrepl lesson --check [NAME ...]  verify lessons; exit 1 naming lesson, step and difference
    gradrepl lesson NAME --auto         play every step and reference solution, no input
    gradrepl lesson NAME                play interactively
    --lang en|zh                        default from LC_ALL / LC_MESSAGES / LANG (zh_* -> zh)

Exit status: 0 success, 1 a lesson problem or mismatch, 2 usage.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from gradrepl.messages import default_lang, msg
from gradrepl.tutor.lesson import Lesson, LessonError, find_lesson, lessons_dir, load_all


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gradrepl lesson", description="Lessons that replay the autograd tutorials.",
        epilog="Progress is saved under the user data directory (platformdirs).")
    parser.add_argument("name", nargs="*", help="'list', or a lesson id / number (several with --check)")
    parser.add_argument("--names", action="store_true", help="with list: lesson ids only, one per line")
    parser.add_argument("--check", action="store_true", help="verify lessons (all when no NAME is given)")
    parser.add_argument("--auto", action="store_true", help="play every step and reference solution, no input")
    parser.add_argument("--lang", choices=("en", "zh"), help="language of the prose (default: from LANG)")
    parser.add_argument("--dir", type=Path, help="read lessons from this directory instead of lessons/")
    return parser


def _list(lessons: list[Lesson], names_only: bool, lang: str) -> int:
    if names_only:
        for lesson in lessons:
            print(lesson.id)
        return 0
    from gradrepl.tutor.display import lesson_table
    from gradrepl.tutor.progress import ProgressStore

    store = ProgressStore()
    lesson_table(lessons, store, lang)
    if store.warning:
        print(f"warning: {store.warning}", file=sys.stderr)
    return 0


def _check(lessons: list[Lesson]) -> int:
    from gradrepl.tutor.player import missing_needs, play_through
    from gradrepl.tutor.runner import SandboxRunner

    failed = 0
    for lesson in lessons:
        missing = missing_needs(lesson)
        if missing:   # written ahead of a feature (its outputs recorded from PyTorch): not a failure
            print(f"skip {lesson.id}: needs {', '.join(missing)}, which this gradrepl does not have yet")
            continue
        problems = play_through(lesson, SandboxRunner())
        if problems:
            failed += 1
            for problem in problems:
                print(f"{lesson.path}: {problem}", file=sys.stderr)
        else:
            print(f"ok  {lesson.id}: {len(lesson.steps)} steps, {len(lesson.exercises)} exercises")
    return 1 if failed else 0


def main(args: list[str], play_on_terminal: Callable[[Lesson, str], int] | None = None) -> int:
    """`play_on_terminal(lesson, lang)`, when given, plays a lesson when stdin and stdout are a
    terminal (the REPL passes its full prompt: gradrepl.repl.lesson.main); otherwise, and always
    when piped, the line-based player plays. The tutor never imports the REPL."""
    parser = _parser()
    try:
        opts = parser.parse_args(args)
    except SystemExit as e:  # argparse has printed usage or help
        return 0 if e.code in (0, None) else 2
    lang = opts.lang or default_lang()
    try:
        lessons = load_all(opts.dir)
    except LessonError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: cannot read lessons: {e}", file=sys.stderr)
        return 1
    if not lessons:
        print(f"error: no lesson files (NN-name.md) in {opts.dir or lessons_dir()}", file=sys.stderr)
        return 1

    names = opts.name
    if names[:1] == ["list"] or (not names and not opts.check):
        if len(names) > 1:
            parser.print_usage(sys.stderr)
            return 2
        return _list(lessons, opts.names, lang)
    selected = []
    for name in names:
        lesson = find_lesson(lessons, name)
        if lesson is None:
            known = ", ".join(lesson.id for lesson in lessons)
            print(msg("cli.no_lesson", lang, name=repr(name), known=known), file=sys.stderr)
            return 2
        selected.append(lesson)
    if opts.check:
        return _check(selected or lessons)
    if len(selected) != 1:
        print(msg("cli.one_lesson", lang), file=sys.stderr)
        return 2
    from gradrepl.tutor.player import missing_needs

    missing = missing_needs(selected[0])
    if missing:
        print(msg("cli.needs", lang, id=selected[0].id, names=", ".join(missing)), file=sys.stderr)
        return 1
    if opts.auto:
        from gradrepl.tutor.display import auto_play

        return auto_play(selected[0], lang)
    if play_on_terminal is not None and sys.stdin.isatty() and sys.stdout.isatty() and not opts.dir:
        return play_on_terminal(selected[0], lang)
    from gradrepl.tutor.interactive import play

    return play(selected[0], lang)
