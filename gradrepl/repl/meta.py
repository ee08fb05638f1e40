"""Meta commands: `:help`, `:vars`, `:graph`, `:lesson`, ... (only from what the learner types).

Each command is a method `cmd_<name>(argument)` of MetaCommands, with its arguments in
COMMANDS (lesson steering in LESSON_COMMANDS, handled by the running lesson) and its
one-line summary in the catalogue (gradrepl.messages, `cmd:name`); HELP names the longer
help topics (`:help autograd`, `:help keys`: `help.autograd`, `help.keys` there).
"""
import difflib
from pathlib import Path

from rich.text import Text

from gradrepl.messages import colon, msg
from gradrepl.repl.render import escape_control, leaf_grad, named_tensors, shape_text, short_repr

COMMANDS = {   # name: arguments; the summary is the catalogue's cmdNAME (gradrepl.messages)
    ":help": "[TOPIC]", ":vars": "", ":grad": "[NAME]", ":graph": "NAME [dot|mermaid|FILE]",
    ":explain": "NAME [V]", ":gradcheck": "NAME [V]", ":jacobian": "Y X", ":reset": "", ":load": "FILE",
    ":save": "FILE", ":history": "[N]", ":lesson": "[NAME]", ":lang": "[en|zh]", ":tutor": "[on|off]",
    ":quit": "",
}
LESSON_COMMANDS = {":hint": "", ":solution": "", ":check": "", ":skip": "", ":back": "", ":restart": ""}
HELP = ("autograd", "keys")     # the longer topics; their text is the catalogue's help.TOPIC
TOPIC_ALIASES = {"basics": "autograd", "autograd basics": "autograd", "keyboard": "keys"}


class MetaCommands:
    def __init__(self, repl):
        self.repl = repl

    @property
    def printer(self):
        return self.repl.printer

    def _say(self, key, **fields):
        """The catalogue's repl.KEY in the session's language."""
        return msg("repl." + key, self.repl.lang, **fields)

    def names(self):
        return [*COMMANDS, *(LESSON_COMMANDS if self.repl.lesson is not None else ())]

    def help_topics(self):
        return ["autograd", "commands", "keys", *(n[1:] for n in (*COMMANDS, *LESSON_COMMANDS))]

    def run(self, text: str) -> None:
        command, _, argument = text.strip().partition(" ")
        argument = argument.strip()
        if command in LESSON_COMMANDS or (command in (":quit", ":reset") and self.repl.lesson is not None):
            if self.repl.lesson is None:
                self.printer.problem(self._say("no_lesson", command=command))
            else:
                self.repl.lesson.command(command)
            return
        handler = getattr(self, "cmd_" + command[1:], None) if command in COMMANDS else None
        if handler is None:
            best = difflib.get_close_matches(command, self.names(), n=1, cutoff=0.5)
            self.printer.problem(self._say("unknown_close", command=command, close=best[0]) if best else
                                 self._say("unknown", command=command))
            return
        handler(argument)

    def _usage(self, command):
        self.printer.problem(self._say("usage", usage=f"{command} {COMMANDS[command]}".rstrip()))

    # help -------------------------------------------------------------------------------
    def cmd_help(self, argument):
        lang = self.repl.lang
        topic = TOPIC_ALIASES.get(argument.lower(), argument.lower())
        if topic in HELP:
            self.printer.print(Text(msg("help." + topic, lang)))
            return
        name = topic if topic.startswith(":") else ":" + topic
        every = {**COMMANDS, **LESSON_COMMANDS}
        if topic and name in every:
            self.printer.print(Text(f"{name} {every[name]}".rstrip(), style="bold"))
            self.printer.print(Text("  " + msg("cmd" + name, lang)))
            return
        if topic and topic != "commands":
            topics = ", ".join(self.help_topics())
            self.printer.problem(self._say("no_help", topic=repr(argument), topics=topics))
            return
        from rich.table import Table

        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column(no_wrap=True, style="bold")
        table.add_column(overflow="fold")
        for name, arguments in COMMANDS.items():
            table.add_row(f"{name} {arguments}".rstrip(), msg("cmd" + name, lang))
        table.add_row("", "")
        for name in LESSON_COMMANDS:
            table.add_row(name, self._say("in_lesson") + msg("cmd" + name, lang))
        self.printer.print(Text(self._say("intro")))
        self.printer.print(table)
        self.printer.print(Text(self._say("more"), style="dim"))

    # the session ------------------------------------------------------------------------
    def _tensors(self):
        session = self.repl.session
        return named_tensors(session.namespace, session.api)

    def cmd_vars(self, argument):
        from rich.table import Table

        session = self.repl.session
        tensors = self._tensors()
        others = [(n, v) for n, v in session.namespace.items()
                  if isinstance(n, str) and not session.api.is_tensor(v)
                  and type(v).__name__ != "module"]
        if not tensors and not others:
            self.printer.note(self._say("no_vars"))
            return
        if tensors:
            table = Table(title=self._say("tensors"), title_justify="left")
            for column in ("name", "shape", "dtype", "requires_grad", "is_leaf", "grad_fn", "grad"):
                header = self._say(column) if column in ("name", "shape") else column   # attributes stay
                table.add_column(header, no_wrap=column in ("name", "shape", "dtype"))
            for name, t in tensors:
                fn = t.grad_fn
                grad = leaf_grad(t)
                table.add_row(name, shape_text(t), str(t.dtype).removeprefix("torch."),
                              str(t.requires_grad), str(t.is_leaf),
                              "None" if fn is None else fn.name(),
                              "-" if grad is None else self._say("has_grad", shape=shape_text(grad)))
            self.printer.print(table)
        if others:
            parts = []
            for name, value in others:
                text = short_repr(value, 40)
                parts.append(f"{name} = {text}" if text is not None
                             else f"{name} ({session.access.type_label(value)})")
            self.printer.print(Text(self._say("others") + escape_control(", ".join(parts))))

    def cmd_grad(self, argument):
        session = self.repl.session
        if argument:
            tensors = dict(self._tensors())
            value = tensors.get(argument, session.namespace.get(argument))
            params = [(n, t, leaf_grad(t)) for n, t in tensors.items() if n.startswith(argument + ".")]
            if not session.api.is_tensor(value) and params:     # a model: its parameters' grads
                rows = [r for r in params if r[2] is not None]
                if rows:
                    self.printer.grad_table(rows, title=f"{argument}{colon(self.repl.lang)}.grad", header="grad",
                                            columns=(self._say("name"), self._say("shape")))
                else:
                    self.printer.note(self._say("no_param_grad", name=argument))
                return
            if not session.api.is_tensor(value):
                self.printer.problem(self._say("not_tensor", name=repr(argument)))
                return
            grad = leaf_grad(value)
            if grad is None:
                why = self._say("not_leaf" if not value.is_leaf and not value.retains_grad else
                                "not_reached" if value.requires_grad else "no_requires_grad")
                self.printer.note(self._say("grad_none", name=argument, why=why))
            else:
                self.printer.value(repr(grad))
            return
        rows = [(n, t, leaf_grad(t)) for n, t in self._tensors()]
        rows = [r for r in rows if r[2] is not None]
        if not rows:
            self.printer.note(self._say("no_grads"))
            return
        self.printer.grad_table(rows, title=".grad", header="grad", columns=(self._say("name"), self._say("shape")))

    def cmd_reset(self, argument):
        self.repl.reset_session()
        self.printer.note(self._say("reset"))

    def cmd_load(self, argument):
        if not argument:
            return self._usage(":load")
        path = Path(argument).expanduser()
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            self.printer.problem(self._say("cannot_read", path=argument, reason=reason))
            return
        result = self.repl.run_code(text, filename=str(argument), trusted=False, annotate=False)
        made = sorted({n for s in result.statements if s.error is None for n in s.assigned})
        status = self._say("loaded" if result.ok else "load_stopped", path=argument, count=len(result.statements))
        self.printer.note(status + (self._say("load_names", names=", ".join(made)) if made else ""))

    def cmd_save(self, argument):
        if not argument:
            return self._usage(":save")
        from gradrepl.repl.history import write_atomically

        from gradrepl.export import to_pytorch

        path = Path(argument).expanduser()
        transcript = self.repl.session.transcript
        try:
            write_atomically(path, to_pytorch(transcript))
        except OSError as e:
            self.printer.problem(self._say("cannot_write", path=argument, reason=str(e.strerror or e)))
            return
        self.printer.note(self._say("saved", count=len(transcript), path=argument))

    def cmd_history(self, argument):
        try:
            count = int(argument) if argument else 20
        except ValueError:
            return self._usage(":history")
        entries = self.repl.history.entries()[-count:] if count > 0 else []
        first = len(self.repl.history.entries()) - len(entries) + 1
        for number, entry in enumerate(entries, first):
            lines = entry.split("\n")
            self.printer.print(Text(f"{number:>4}  ", style="dim") + Text(lines[0]))
            for line in lines[1:]:
                self.printer.print(Text("      " + line))

    def cmd_tutor(self, argument):
        if argument in ("on", "off"):
            self.repl.tutor = argument == "on"
        elif argument:
            return self._usage(":tutor")
        self.printer.note(self._say("tutor_on" if self.repl.tutor else "tutor_off"))

    def cmd_lang(self, argument):
        if argument in ("en", "zh"):
            self.repl.set_lang(argument)
        elif argument:
            return self._usage(":lang")
        self.printer.note(self._say("lang", language=self.repl.lang))

    def cmd_quit(self, argument):
        self.repl.running = False

    def cmd_lesson(self, argument):
        from gradrepl.tutor.lesson import find_lesson

        lessons = self.repl.lessons()
        if lessons is None:
            return
        if not argument:
            from gradrepl.tutor.display import lesson_table
            from gradrepl.tutor.progress import ProgressStore

            lesson_table(lessons, ProgressStore(), self.repl.lang, self.printer.console)
            self.printer.note(self._say("lesson_start"))
            return
        lesson = find_lesson(lessons, argument)
        if lesson is None:
            known = ", ".join(item.id for item in lessons)
            self.printer.problem(self._say("no_such_lesson", name=repr(argument), known=known))
            return
        self.repl.start_lesson(lesson)

    # graphs and checks (gradrepl.viz) ---------------------------------------------------------
    def cmd_graph(self, argument):
        self._viz(":graph", argument)

    def cmd_explain(self, argument):
        self._viz(":explain", argument)

    def cmd_gradcheck(self, argument):
        self._viz(":gradcheck", argument)

    def cmd_jacobian(self, argument):
        self._viz(":jacobian", argument)

    def _viz(self, command, argument):
        from gradrepl.repl import viz_bridge

        viz_bridge.show(self.repl, command, argument)
