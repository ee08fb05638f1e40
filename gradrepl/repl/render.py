"""Everything the REPL prints, through one rich Console.

Values are printed exactly as PyTorch prints them (its fixed 80-column layout is
never re-wrapped, only highlighted); tutor displays (annotations, tables, help)
fit the terminal width. Plain text when NO_COLOR is set, with --no-color, or on
TERM=dumb.
"""
import os

from rich.console import Console
from rich.highlighter import ReprHighlighter
from rich.text import Text

from gradrepl.messages import colon, localize, msg

GRAD_PREVIEW = 10_000      # elements: above this a changed .grad is shown by shape only
_PLAIN_TYPES = (int, float, bool, str, complex, tuple, list, dict, set, type(None))


def escape_control(text: str) -> str:
    """Control characters from user strings print escaped (DECISIONS.md); the language's rule."""
    from gradrepl.lang.errors import escape_control as escape

    return escape(text)


def redact(text: str) -> str:
    """Host-internal words hidden, as the language's own error reports hide them."""
    from gradrepl.lang.errors import redact as hide
    return hide(text)


def plain_wanted(no_color=False, environ=os.environ) -> bool:
    return bool(no_color or environ.get("NO_COLOR") or environ.get("TERM") == "dumb")


def make_console(plain: bool, file=None, width=None) -> Console:
    return Console(file=file, width=width, no_color=plain, color_system=None if plain else "auto",
                   highlight=False, soft_wrap=False, emoji=False, markup=False,
                   force_terminal=None if file is None else not plain)


def describe(tensor) -> str:
    """requires_grad, is_leaf and grad_fn of a tensor, read without touching .grad."""
    fn = tensor.grad_fn
    fn_text = "None" if fn is None else f"<{fn.name()}>"
    return f"requires_grad={tensor.requires_grad}  is_leaf={tensor.is_leaf}  grad_fn={fn_text}"


def shape_text(tensor) -> str:
    return repr(tuple(int(n) for n in tensor.shape))


def short_repr(value, limit: int):
    """repr(value) when it is a plain Python value that prints in one short line, else None
    (a large container is never turned into text)."""
    if not _small(value, limit):
        return None
    text = repr(value)
    return text if len(text) <= limit and "\n" not in text else None


def _small(value, limit: int) -> bool:
    """Plain values (containers nested in any depth) with at most `limit` items and characters."""
    seen = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if type(item) not in _PLAIN_TYPES:
            return False
        if isinstance(item, (str, tuple, list, set)):
            seen += len(item)
            if not isinstance(item, str):
                stack.extend(item if seen <= limit else ())
        elif isinstance(item, dict):
            seen += len(item)
            if seen <= limit:
                stack.extend(item.keys())
                stack.extend(item.values())
        else:
            seen += 1
        if seen > limit:
            return False
    return True


def named_tensors(namespace, api):
    """(name, tensor) for the session's tensors and, under `model.fc1.weight`, the
    parameters of the modules it holds (what :vars, :grad and the .grad table list)."""
    from gradrepl.nn.module import Module
    rows, seen = [], set()
    for name, value in list(namespace.items()):
        if not isinstance(name, str):
            continue
        if api.is_tensor(value):
            rows.append((name, value))
            seen.add(id(value))
        elif isinstance(value, Module):
            for pname, param in value.named_parameters():
                if id(param) not in seen:
                    rows.append((f"{name}.{pname}", param))
                    seen.add(id(param))
    return rows


def leaf_grad(tensor):
    """.grad where PyTorch keeps one (leaves, retain_grad), read without the non-leaf warning."""
    if tensor.is_leaf or tensor.retains_grad:
        return tensor.grad
    return None


class Printer:
    def __init__(self, console: Console, lang=None):
        """lang: a callable giving the language of gradrepl's own text (hints, tables), "en" without."""
        self.console = console
        self.lang_of = lang
        self.highlighter = ReprHighlighter()
        self.line_open = False      # program output ended without a newline

    @property
    def lang(self) -> str:
        return self.lang_of() if self.lang_of is not None else "en"

    def _print(self, *renderables, **options) -> None:
        self.end_line()
        if self.lang == "zh":    # Chinese lines break between characters, not only at spaces
            from gradrepl.tutor.display import cjk_wrapping
            with cjk_wrapping():
                self.console.print(*renderables, **options)
        else:
            self.console.print(*renderables, **options)

    def end_line(self) -> None:
        """Finish a line that `print(..., end="")` left open, so the prompt starts a fresh one."""
        if self.line_open:
            self.line_open = False
            self.console.file.write("\n")

    # program output and values -------------------------------------------------------------
    def program_output(self, text: str) -> None:
        """What user code printed (already escaped by the session): verbatim."""
        if text:
            self.console.file.write(text)
            self.console.file.flush()
            self.line_open = not text.endswith("\n")

    def value(self, text: str) -> None:
        """A repr exactly as PyTorch prints it, highlighted but never re-wrapped."""
        rich_text = Text(text.rstrip("\n"))
        if not self.console.no_color:
            self.highlighter.highlight(rich_text)
        self._print(rich_text, soft_wrap=True)

    # tutor displays -------------------------------------------------------------------------
    def tensor_assigned(self, name: str, tensor, with_value: bool = True, in_place: bool = False) -> None:
        """The new value (when nothing else shows it) and its autograd flags; in_place: the
        statement changed the tensor without rebinding the name (y[0, 0] = 5, y.detach_())."""
        lang = self.lang
        if in_place:
            name = msg("repl.changed_in_place", lang, name=name)
        if with_value:
            self.value(repr(tensor))
            line = f"{name}{colon(lang)}{describe(tensor)}"
        else:
            line = f"{name}{colon(lang)}{msg('repl.shape_is', lang, shape=shape_text(tensor))}  {describe(tensor)}"
        self._print(Text(line, style="dim cyan"), soft_wrap=True)

    def other_assigned(self, name: str, text: str) -> None:
        self._print(Text(f"{name} = {escape_control(text)}", style="dim cyan"), soft_wrap=True)

    def grad_table(self, rows, title=".grad changed", header="new grad", columns=("name", "shape")) -> None:
        """rows: (name, tensor, grad); each grad is shown as PyTorch prints it."""
        from rich import box
        from rich.table import Table

        table = Table(title=title, title_justify="left", title_style="bold",
                      box=box.SIMPLE_HEAD if self.console.no_color else box.ROUNDED)
        table.add_column(columns[0], style="bold", no_wrap=True)
        table.add_column(columns[1], no_wrap=True)
        table.add_column(header, no_wrap=True, overflow="ignore")
        for name, tensor, grad in rows:
            if grad.numel() > GRAD_PREVIEW:
                shown = Text(msg("repl.grad_of_shape", self.lang, shape=shape_text(grad)))
            else:
                shown = Text(repr(grad))
                if not self.console.no_color:
                    self.highlighter.highlight(shown)
            table.add_row(name, shape_text(tensor), shown)
        self._print(table)

    # errors and messages --------------------------------------------------------------------
    def error(self, error, multiline: bool) -> None:
        """A UserError: place (for blocks), the source with a caret, `Type: message`, hint."""
        if error.kind == "interrupt":
            self.interrupted()
            return
        if error.line is not None and error.source_line is not None:
            if multiline or error.filename != "<stdin>":
                where = f"line {error.line}" if error.filename == "<stdin>" \
                    else f"{error.filename}:{error.line}"
                self._print(Text(where, style="dim"))
            source = escape_control(redact(error.source_line.rstrip("\n")))
            stripped = source.lstrip()
            self._print(Text("    " + stripped), soft_wrap=True)
            if error.col is not None and error.kind == "syntax":
                caret = max(0, error.col - (len(source) - len(stripped)))
                self._print(Text("    " + " " * caret + "^", style="bold red"), soft_wrap=True)
            elif error.carets and error.kind == "error":    # under the failing part, as Python 3.11
                self._print(Text("    " + error.carets, style="bold red"), soft_wrap=True)
        message = escape_control(redact(localize(error.message, self.lang) if error.kind == "budget" else error.message))
        line = Text()
        line.append(error.type_name, style="bold red")
        if message:
            line.append(": " + message)
        self._print(line)
        if error.hint:
            hint = localize(error.hint, self.lang)
            self._print(Text(msg("repl.hint", self.lang, text=escape_control(hint)), style="yellow"))

    def interrupted(self) -> None:
        """Ctrl-C stopped a statement; the terminal has echoed ^C, so start a fresh line."""
        if self.console.is_terminal:
            self._print()
        line = Text("KeyboardInterrupt", style="bold red")
        line.append(msg("repl.interrupted", self.lang), style="dim")
        self._print(line)

    def warning(self, category: str, message: str) -> None:
        self._print(Text(f"{category}: {escape_control(message)}", style="yellow"))

    def note(self, text: str, style: str = "dim") -> None:
        self._print(Text(text, style=style))

    def problem(self, text: str) -> None:
        self._print(Text(text, style="red"))

    def print(self, renderable) -> None:
        self._print(renderable)
