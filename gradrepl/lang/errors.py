"""User-facing errors: values with PyTorch's/Python's exact message, a place and a hint."""
import re

from gradrepl.errors import Record
from gradrepl.lang.policy import CONTROL_CHARS, HOST_WORDS
from gradrepl.messages import msg

# The patterns are compiled when first used (re's cache), not at start-up.
_CONTROL = "[" + "".join(chr(c) for c in CONTROL_CHARS) + "]"
_SURROGATE = "[\ud800-\udfff]"


def redact(text: str) -> str:
    """Reports never repeat words that name host internals, even when hostile input typed them."""
    return re.sub(HOST_WORDS, "\u2026", text)


def escape_control(text: str) -> str:
    """Escape control characters (all but \\n and \\t) the way DECISIONS.md says, and lone
    surrogates."""
    if re.search(_CONTROL, text) is None and (text.isascii() or re.search(_SURROGATE, text) is None):
        return text     # (the surrogates' class costs 0.3 ms to compile: only for non-ASCII text)
    # a lone surrogate cannot be written to a UTF-8 terminal: shown as Python spells it
    return re.sub(_SURROGATE, lambda m: f"\\u{ord(m.group()):04x}", text.translate(CONTROL_CHARS))


_INTERNAL_ATTR = r"^'([^']*)' object has no attribute '_[^']*'$"


# Python's message for a call that misses arguments, and the torch functions PyTorch writes in
# Python (their message stays Python's; every other torch function and Tensor method is C++,
# whose argument parser says `cumsum() missing 1 required positional arguments: "dim"`).
_PY_MISSING = r"^(?:_torch_)?(\w+)\(\) missing (\d+) required positional arguments?: ('.+)$"
_PYTHON_TORCH = frozenset((
    "atleast_1d atleast_2d atleast_3d block_diag broadcast_shapes broadcast_tensors cartesian_prod "
    "cdist chain_matmul einsum get_default_dtype initial_seed is_tensor istft lu manual_seed "
    "meshgrid norm seed set_default_dtype set_printoptions set_rng_state split stft tensordot "
    "unique unique_consecutive unravel_index get_rng_state").split())
_PARAM_NAMES = {("matmul", "b"): "other", ("mm", "b"): "mat2", ("bmm", "b"): "mat2",
                ("dot", "b"): "tensor", ("pow", "b"): "exponent"}
_C_OPS = []


def _c_ops():
    if not _C_OPS:
        from gradrepl.engine import api
        from gradrepl.engine.tensor import Tensor
        from gradrepl.lang.classes import TENSOR_PYTHON_METHODS
        names = {n for n in api.TORCH if not n.startswith("_")} - _PYTHON_TORCH
        names |= {n for n in dir(Tensor) if not n.startswith("_")} - TENSOR_PYTHON_METHODS
        _C_OPS.append(frozenset(names))
    return _C_OPS[0]


def pytorch_missing_args(exc):
    """A torch op called without a required argument: PyTorch's parser's message (Python's
    binding of the engine's function raised it: no frame of gradrepl's own binder for a
    learner's function is on the traceback)."""
    m = re.match(_PY_MISSING, exc.args[0])
    if not m or m.group(1) not in _c_ops():
        return exc
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is not None and tb.tb_frame.f_code.co_filename.endswith(("lang/runtime.py", "lang\\runtime.py")):
        return exc      # a learner's own function: Python's message
    name, n = m.group(1), int(m.group(2))
    params = re.findall(r"'(\w+)'", m.group(3))
    params = ", ".join(f'"{_PARAM_NAMES.get((name, p), p)}"' for p in params)
    clean = TypeError(f"{name}() missing {n} required positional argument{'s' if n == 1 else ''}: {params}")
    clean.__dict__.update(exc.__dict__)
    clean.__traceback__ = exc.__traceback__
    return clean


_PY_TOO_MANY = r"^(\w+)\(\) takes from (\d+) to (\d+) positional arguments but (\d+) were given$"


def pytorch_too_many_args(exc):
    """A Tensor method given too many arguments: PyTorch counts them without `self`."""
    m = re.match(_PY_TOO_MANY, exc.args[0])
    if not m or m.group(1) not in _c_ops() or exc.__dict__.get("self_uncounted"):
        return exc
    from gradrepl.engine.ops import GUARD_CODES       # (the engine is loaded: a torch op raised)
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code not in GUARD_CODES:     # the op's complex guard passes the call on unchanged
            frames.append(tb.tb_frame.f_code)
        tb = tb.tb_next
    engine = [c for c in frames if "/engine/" in c.co_filename.replace("\\", "/")]
    if engine and engine[-1].co_name != "method":
        return exc          # torch.f(...): PyTorch counts `input` too, as Python does
    if not engine and frames and not frames[-1].co_filename.replace("\\", "/").endswith("lang/session.py"):
        return exc
    name, lo, hi, got = m.group(1), int(m.group(2)) - 1, int(m.group(3)) - 1, int(m.group(4)) - 1
    clean = TypeError(f"{name}() takes from {lo} to {hi} positional arguments but {got} were given")
    clean.__dict__.update(exc.__dict__)
    clean.__dict__["self_uncounted"] = True     # converted once: the except clause converts again
    clean.__traceback__ = exc.__traceback__
    return clean


def without_internals(exc):
    """An engine error that names an internal attribute (a list passed where the engine
    reads a tensor's `_a`) becomes the TypeError it is, without the internal name; a torch op
    missing an argument says so as PyTorch does."""
    if type(exc) is TypeError and len(exc.args) == 1 and type(exc.args[0]) is str \
            and "required positional" in exc.args[0]:
        return pytorch_missing_args(exc)
    if type(exc) is TypeError and len(exc.args) == 1 and type(exc.args[0]) is str \
            and " positional arguments but " in exc.args[0]:
        return pytorch_too_many_args(exc)
    if type(exc) is AttributeError and len(exc.args) == 1 and type(exc.args[0]) is str:
        m = re.match(_INTERNAL_ATTR, exc.args[0])
        if m:
            clean = TypeError(f"expected a Tensor, got {m.group(1)}")
            clean.__dict__.update(exc.__dict__)       # the place it was raised
            return clean
    return exc


class NotSupported(BaseException):
    """A construct gradrepl refuses (`yield`, `global`, ...): never catchable by user code."""

    type_name = "SyntaxError"


class ExitRequested(BaseException):
    """`exit()` / `quit()` typed at the REPL prompt (trusted mode only)."""


class UserError(Record):
    """An error as the learner sees it.

    kind: 'syntax' (nothing ran), 'error' (an exception in user code),
    'budget' (a limit fired), 'interrupt' (Ctrl-C), 'internal' (a gradrepl bug).
    statement_line: first line of the top-level statement that was running;
    carets: under the failing sub-expression of source_line (its stripped text).
    """

    FIELDS = ("type_name", "message", "filename", "line", "col", "source_line", "hint", "kind",
              "statement_line", "carets")

    def __init__(self, type_name: str, message: str, filename: str = "<stdin>",
                 line: int | None = None, col: int | None = None, source_line: str | None = None,
                 hint: str | None = None, kind: str = "error", statement_line: int | None = None,
                 carets: str | None = None):
        self.type_name = type_name
        self.message = message
        self.filename = filename
        self.line = line
        self.col = col
        self.source_line = source_line
        self.hint = hint
        self.kind = kind
        self.statement_line = statement_line
        self.carets = carets

    @property
    def headline(self) -> str:
        """The exact `Type: message` line (first line of the message); `Type:` for an empty
        message (a bare `assert`, `next()` on an exhausted iterator), as the oracle prints it."""
        first = redact(self.message.splitlines()[0]) if self.message else ""
        return f"{self.type_name}: {first}" if first else f"{self.type_name}:"

    def format(self) -> str:
        """Plain-text report: place, source line (caret for syntax errors), headline, hint."""
        out = []
        if self.line is not None:
            where = f"{self.filename}:{self.line}"
            if self.statement_line is not None and self.statement_line != self.line:
                where += f" (in the statement at line {self.statement_line})"
            out.append(where)
            if self.source_line is not None and not re.search(HOST_WORDS, self.source_line):
                src = self.source_line.rstrip("\n")
                stripped = src.lstrip()
                out.append("    " + stripped)
                if self.kind == "syntax" and self.col is not None:
                    indent = len(src) - len(stripped)
                    out.append("    " + " " * max(0, self.col - indent) + "^")
                elif self.carets:
                    out.append("    " + self.carets)
        msg = redact(self.message)
        out.append(f"{self.type_name}: {msg}" if msg else f"{self.type_name}:")
        if self.hint:
            out.append(f"hint: {self.hint}")
        return escape_control("\n".join(out))


def _distance(a: str, b: str) -> int:
    """Levenshtein distance, with an adjacent swap counted as one edit."""
    prev2, prev = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            d = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                d = min(d, prev2[j - 2] + 1)
            cur.append(d)
        prev2, prev = prev, cur
    return prev[-1]


def suggest(name: str, candidates) -> str | None:
    """The closest candidate to a misspelt name (about one edit in three letters), or None."""
    allowed = max(1, (len(name) + 1) // 3)
    best, best_d = None, allowed + 1
    for c in candidates:
        if not isinstance(c, str) or c.startswith("_") or c == name:
            continue
        if c.lower() == name.lower():
            return c
        if abs(len(c) - len(name)) >= best_d:
            continue
        d = _distance(name, c)
        if d < best_d or (d == best_d and best is not None and c < best):
            best, best_d = c, d
    return best if best_d <= allowed else None


_RECEIVER = r"([A-Za-z_][A-Za-z0-9_]*)\s*\.\s*backward\s*\("


def hint_for(type_name: str, message: str, source_line: str | None) -> str | None:
    """A one-line hint for the errors learners meet most, or None (in English, from the catalogue:
    the front end shows it with gradrepl.messages.localize)."""
    receiver = None
    if source_line:
        m = re.search(_RECEIVER, source_line)
        if m:
            receiver = m.group(1)
    if message.startswith("grad can be implicitly created only for scalar outputs"):
        return msg("hint.scalar", "en", y=receiver or "y")
    if "does not require grad and does not have a grad_fn" in message:
        return msg("hint.requires_grad", "en")
    if message.startswith("Trying to backward through the graph a second time"):
        return msg("hint.retain_graph", "en")
    if "leaf Variable that requires grad is being used in an in-place operation" in message:
        return msg("hint.leaf_in_place", "en")
    return None
