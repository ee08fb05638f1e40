"""The interactive loop: read with prompt_toolkit, run with gradrepl.lang.run_source, show with rich.

`Repl` is the shell: it owns the learner's Session, the prompt, the printer, the
meta commands and an optional running lesson. Everything typed runs through
`run_source(..., trusted=True)`; lesson code and `:load`ed files run untrusted.
"""
import ast
import contextlib
import os
import threading

from gradrepl import __version__
from gradrepl.errors import BudgetExceeded, Interrupted
from gradrepl.messages import localize, msg
from gradrepl.repl.meta import MetaCommands
from gradrepl.repl.multiline import is_meta, needs_more
from gradrepl.repl.render import (GRAD_PREVIEW, Printer, leaf_grad, make_console, named_tensors, plain_wanted,
                                   short_repr)

PROMPT, CONTINUATION = ">>> ", "... "
_SHOWN_LENGTH = 200       # a non-tensor assigned value is echoed when its repr is this short


class Repl:
    def __init__(self, *, limits=None, plain=False, lang=None, console=None, history=None,
                 input=None, output=None, lessons_dir=None, simple=False, lesson_limits=None):
        """simple=True reads lines with input() (TERM=dumb: no cursor movement, no toolbar).
        limits: the prompt's (default: no step or time limit); lesson_limits: while a lesson
        runs (default: DECISIONS.md's 10^7 steps and 10 s per statement)."""
        from gradrepl.limits import Limits
        from gradrepl.repl.history import AtomicFileHistory, data_dir

        limits = limits if limits is not None else Limits.open_ended()
        self.lesson_limits = lesson_limits if lesson_limits is not None else Limits.for_lessons()

        self.printer = Printer(console if console is not None else make_console(plain), lang=lambda: self.lang)
        self.plain = plain
        self.tutor = True
        self.running = True
        self.lesson = None
        self.lessons_dir = lessons_dir
        self._lessons = None
        self._lang = lang
        self.history = history if history is not None else AtomicFileHistory(data_dir() / "history")
        self.meta = MetaCommands(self)
        # The engine (NumPy) loads while the first prompt is drawn: the learner can type at once.
        self._session = None
        self._session_failure = None
        self._session_thread = threading.Thread(target=self._build_session, args=(limits,),
                                                name="gradrepl-session", daemon=True)
        self._session_thread.start()
        self._history_warned = None      # the history warning last shown
        self._echoing = False
        self._quiet = False
        self._annotate = True
        self._multiline = False
        self._single = True        # one statement typed: its assigned value is shown in full
        self._grads = {}
        self._prompt_run = False    # the code running was typed at the prompt (`_` is set)
        self._shorthand_told = set()
        self._io = (input, output)
        self.rng_state = None
        self.prompt = None if simple else self._make_prompt()

    def _build_session(self, limits):
        try:
            from gradrepl.lang import Session

            session = Session(limits=limits)
            session.write_out = self._write
            session.display = self._display
            session.report = self._report
            session.warn = self._warn
            session.after_statement = self._after_statement
            self._session = session
            self.rng_state = self._rng_state()
        except BaseException as e:  # noqa: BLE001 - re-raised where the session is first needed
            self._session_failure = e

    @property
    def session(self):
        if self._session is None:
            self._session_thread.join()
            if self._session_failure is not None:
                raise self._session_failure
        return self._session

    @property
    def lang(self):
        if self._lang is None:
            from gradrepl.messages import default_lang
            self._lang = default_lang()
        return self._lang

    # prompt --------------------------------------------------------------------------------
    def _make_prompt(self):
        from prompt_toolkit import PromptSession
        from prompt_toolkit.output import ColorDepth
        from prompt_toolkit.styles import Style

        from gradrepl.repl.completer import ReplCompleter
        from gradrepl.repl.key_bindings import repl_key_bindings
        from gradrepl.repl.lexer import ReplLexer
        from gradrepl.repl.validator import SyntaxValidator

        input, output = self._io
        return PromptSession(
            PROMPT, multiline=True, prompt_continuation=lambda width, line, soft: CONTINUATION,
            lexer=None if self.plain else ReplLexer(), completer=ReplCompleter(self.completion_names),
            complete_while_typing=False, validator=SyntaxValidator(), validate_while_typing=False,
            history=self.history, enable_history_search=False, key_bindings=repl_key_bindings(),
            bottom_toolbar=self.toolbar, include_default_pygments_style=not self.plain,
            style=Style.from_dict({"meta": "ansicyan bold", "prompt": "ansigreen bold",
                                   "bottom-toolbar": "noreverse bg:#222222 #aaaaaa"})
            if not self.plain else None,
            color_depth=ColorDepth.MONOCHROME if self.plain else None,
            input=input, output=output, reserve_space_for_menu=4)

    def completion_names(self):
        from gradrepl.repl.completer import Names

        return Names(self.session.namespace, self.session.fallback, self.session.api,
                     meta_commands=self.meta.names, lesson_names=self.lesson_names,
                     help_topics=self.meta.help_topics)

    def toolbar(self):
        session = self._session            # drawn before the session is ready: nothing yet
        api = session.api if session is not None else None
        tensors = {id(v) for v in session.namespace.values() if api.is_tensor(v)} if api else ()
        enabled = api.grad_enabled() if api else True
        lang = self.lang
        parts = [" " + msg("repl.grad_mode_on" if enabled else "repl.grad_mode_off", lang),
                 msg("repl.tensor_count", lang, count=len(tensors))]
        if self.lesson is not None:
            parts.append(self.lesson.status())
        parts.append(msg("repl.toolbar_help", lang))
        separator = " │ " if not self.plain else " | "
        from rich.cells import cell_len
        if cell_len(separator.join(parts)) > self.printer.console.width:    # the help hint goes first
            parts.pop()
        return separator.join(parts)

    def ask(self, question: str) -> str:
        """A one-line answer (resume a lesson?), outside the code prompt."""
        if self.prompt is None:
            return input(question)
        from prompt_toolkit import PromptSession

        stdin, stdout = self._io
        return PromptSession(input=stdin, output=stdout).prompt(question)

    # the loop ------------------------------------------------------------------------------
    def run(self, lesson: str | None = None, banner: bool = True) -> int:
        """The read-run-show loop until Ctrl-D, `exit` or `:quit`; `lesson` starts one at once."""
        if banner:
            self.printer.note(msg("repl.banner", self.lang, version=__version__), style="")
        self._history_warning()
        if lesson is not None:
            self.handle_safely(f":lesson {lesson}")
        while self.running:
            try:
                text = self.prompt.prompt() if self.prompt is not None else self._read_simple()
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            self.handle_safely(text)
            self._history_warning()
        if self.lesson is not None:
            self.lesson.save()
        return 0

    def _history_warning(self):
        """Say as soon as it happens, once, that history cannot be read or kept."""
        if self.history.warning and self.history.warning != self._history_warned:
            self._history_warned = self.history.warning
            self.printer.warning("warning", self.history.warning)

    def _read_simple(self) -> str:
        """Python's own prompts on a terminal that cannot move the cursor."""
        lines = [input(PROMPT)]
        while needs_more("\n".join(lines)):
            lines.append(input(CONTINUATION))
        text = "\n".join(lines).rstrip()
        if text.strip():
            self.history.append_string(text)
        return text

    def handle_safely(self, text: str) -> None:
        try:
            self.handle(text)
            self.printer.end_line()
        except KeyboardInterrupt:
            self.printer.interrupted()
        except BudgetExceeded as e:  # a hook run by :explain / :gradcheck hit a budget
            self.printer.problem(f"BudgetExceeded: {localize(e.message, self.lang)}")
        except Interrupted:
            self.printer.interrupted()
        except Exception as e:  # noqa: BLE001 - the session goes on; never a traceback
            self.printer.problem(f"gradrepl: internal error ({type(e).__name__}: {str(e)[:200]}); "
                                 f"your variables are kept; please report it with the input")

    def handle(self, text: str) -> None:
        stripped = text.strip()
        if not stripped:
            if self.lesson is not None:
                self.lesson.enter()
            return
        if is_meta(stripped):
            if self.lesson is None:
                self.meta.run(stripped)
                return
            with self.lesson.tools_running():     # a tool's replayed backward is no attempt's
                self.meta.run(stripped)
            if self.lesson is not None:
                self.lesson.after_command(stripped)
            return
        if stripped in ("exit", "quit"):
            self.running = False
            return
        if stripped in ("help", "help()"):      # Python's help() is not offered: ours is
            self.meta.run(":help")
            return
        result = self.run_code(text)
        if result.exit_requested:
            self.running = False
        elif self.lesson is not None and not result.syntax_error:
            self.lesson.after_input()

    # running code --------------------------------------------------------------------------
    def run_code(self, text, *, filename="<stdin>", trusted=True, annotate=True, quiet=False):
        self._multiline = "\n" in text.strip()
        self._single = _statement_count(text) == 1
        saved = self._annotate, self._quiet, self._prompt_run
        self._annotate, self._quiet = annotate, quiet or self._quiet
        self._prompt_run = trusted
        self._grads = self._grad_snapshot()
        from gradrepl.lang import run_source

        api = self.session.api
        # The engine has one warning sink, taken by the last Session made (:gradcheck makes one)
        api.set_warning_sink(self._warn)
        # backward keeps the values it saved so that :explain, :gradcheck, :jacobian can replay it
        api.keep_saved_for_explain(True)
        session = self.session
        prompt_limits = session.limits
        if self.lesson is not None:        # lesson steps and exercises keep their budgets
            session.limits = self.lesson_limits
        try:
            return run_source(text, session, filename=filename, trusted=trusted)
        finally:
            session.limits = prompt_limits
            api.keep_saved_for_explain(False)
            self._annotate, self._quiet, self._prompt_run = saved

    def _write(self, text):
        if self._quiet:
            return
        if self._echoing:
            self.printer.value(text)
        else:
            self.printer.program_output(text)

    def _display(self, value):
        from gradrepl.lang import safe_repr

        self._echoing = True
        try:
            self.session.write(safe_repr(value) + "\n")   # capped before building, then counted
        finally:
            self._echoing = False
        if self._prompt_run:       # as Python's REPL: `_` is the last result shown at the prompt
            self.session.fallback["_"] = value

    def _report(self, error):
        if not self._quiet:
            self.printer.error(error, self._multiline)

    def _warn(self, category, message):
        if not self._quiet:
            self.printer.warning(category, message)

    @contextlib.contextmanager
    def without_warnings(self):
        """For gradrepl's own reads of the session (lesson checks): PyTorch's warnings are for
        what the learner's code does."""
        quiet, self._quiet = self._quiet, True
        try:
            yield
        finally:
            self._quiet = quiet

    def _after_statement(self, statement):
        try:
            after = self._grad_snapshot()
            changed = [n for n, v in after.items() if v[0] is not None and self._grads.get(n) != v]
            self._grads = after
            if statement.error is not None or not self.tutor or not self._annotate or self._quiet:
                return
            self._show_assigned(statement.assigned)
            self._show_assigned([n for n in statement.changed_in_place if n not in statement.assigned],
                                in_place=True)
            if self._prompt_run:
                self._shorthand_tip(statement.source)
            if changed:
                tensors = dict(named_tensors(self.session.namespace, self.session.api))
                rows = [(n, tensors[n], leaf_grad(tensors[n])) for n in changed if n in tensors]
                self.printer.grad_table(rows, title=msg("repl.grad_changed", self.lang),
                                        header=msg("repl.new_grad", self.lang),
                                        columns=(msg("repl.name", self.lang), msg("repl.shape", self.lang)))
        except Exception as e:  # noqa: BLE001 - a display problem must not stop the statement loop
            self.printer.problem(f"gradrepl: internal error in the tutor display "
                                 f"({type(e).__name__}: {str(e)[:200]})")

    def _shorthand_tip(self, source):
        """Once per name: bare `exp` is gradrepl's shorthand; a PyTorch script says torch.exp."""
        from gradrepl.export import shorthand_uses

        new = [n for n in shorthand_uses(source, self.session.namespace) if n not in self._shorthand_told]
        if new:
            self._shorthand_told.update(new)
            spelled = ", ".join(f"torch.{n}" for n in new)
            self.printer.note(msg("repl.shorthand_tip", self.lang, names=", ".join(new), spelled=spelled))

    def _show_assigned(self, names, in_place=False):
        namespace, api = self.session.namespace, self.session.api
        for name in names:
            if name not in namespace:
                continue
            value = namespace[name]
            if in_place and not api.is_tensor(value):
                continue
            if api.is_tensor(value):
                self.printer.tensor_assigned(name, value, with_value=self._single, in_place=in_place)
            elif self._single:
                text = short_repr(value, _SHOWN_LENGTH)
                if text is not None:
                    self.printer.other_assigned(name, text)

    def _grad_snapshot(self):
        """name -> (id of .grad, its values) for session tensors that keep a .grad."""
        snapshot = {}
        for name, value in named_tensors(self.session.namespace, self.session.api):
            grad = leaf_grad(value)
            if grad is None:
                snapshot[name] = (None, None)
            else:
                values = grad.tolist() if grad.numel() <= GRAD_PREVIEW else None
                snapshot[name] = (id(grad), values)
        return snapshot

    def reset_session(self):
        """Forget every variable; the random state is where :gradcheck replays from."""
        self.session.reset()
        self._grads = {}
        self.rng_state = self._rng_state()

    def _rng_state(self):
        get_state = self.session.api.TORCH.get("get_rng_state")
        return get_state() if callable(get_state) else None

    # lessons -------------------------------------------------------------------------------
    def lessons(self, quiet=False):
        """Every lesson (parsed once), or None after saying why they cannot be read."""
        if self._lessons is None:
            from gradrepl.tutor.lesson import LessonError, load_all

            try:
                self._lessons = load_all(self.lessons_dir)
            except (LessonError, OSError) as e:
                if not quiet:
                    self.printer.problem(f"cannot read the lessons: {e}")
                return None
        return self._lessons

    def lesson_names(self):
        return [lesson.id for lesson in self.lessons(quiet=True) or ()]

    def start_lesson(self, lesson):
        from gradrepl.repl.lesson import LessonMode

        if self.lesson is not None:
            self.lesson.save()
        self.lesson = LessonMode(self, lesson)
        self.lesson.start()

    def end_lesson(self):
        self.lesson = None

    def set_lang(self, lang):
        self._lang = lang
        if self.lesson is not None:
            self.lesson.player.lang = lang


def _statement_count(text):
    try:
        return len(ast.parse(text).body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return 0


def start(args, lesson: str | None = None, lang: str | None = None) -> int:
    """Entry point for gradrepl/cli.py: the REPL on a terminal (with `lesson` playing, for
    `gradrepl lesson NAME`; `lang` en/zh, default from the locale)."""
    from dataclasses import fields

    from gradrepl.limits import FLAGS, Limits

    flags = dict(FLAGS)
    flags.update({f.name: getattr(args, f.name) for f in fields(Limits)
                  if getattr(args, f.name, None) is not None})
    plain = plain_wanted(getattr(args, "no_color", False))
    repl = Repl(limits=Limits.open_ended(**flags), lesson_limits=Limits.for_lessons(**flags),
                plain=plain, lang=lang, simple=os.environ.get("TERM") == "dumb")
    from gradrepl.lang import run_source
    from gradrepl.worker import monitor
    restored = monitor.attach_repl(repl, run_source)   # in a worker: replayed after a restart
    return repl.run(lesson, banner=not restored)
