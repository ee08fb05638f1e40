"""Resource limits shared by the engine and the interpreter (defaults: DECISIONS.md)."""
from gradrepl.errors import BudgetExceeded

_DEFAULTS = {
    "max_steps": 10_000_000,   # interpreter steps per top-level statement (None: no limit)
    "time_limit": 10.0,        # seconds of wall time per top-level statement (None: no limit)
    "max_depth": 200,          # call depth
    "max_elements": 50_000_000,  # elements per tensor
    "max_bytes": 2 * 1024 ** 3,  # live tensor data
    "max_int_bits": 100_000,   # integer results
    "max_items": 10_000_000,   # string / sequence length
    "max_output": 1_000_000,   # bytes printed per statement
    "max_source": 100_000,     # bytes of source per statement
    "max_ast_depth": 100,
}


class Limits:
    """The budgets. Defaults are those of lesson steps; `open_ended()` gives the prompt's,
    `run FILE`'s and pipes' (no step or time limit: real training loops run for minutes).

    A plain class, not a dataclass: the front process imports it before forking its worker,
    and `dataclasses` (with the code it generates and compiles) costs start-up time."""

    FIELDS = tuple(_DEFAULTS)

    def __init__(self, **values):
        unknown = set(values) - set(_DEFAULTS)
        if unknown:
            raise TypeError(f"Limits() got an unexpected keyword argument '{sorted(unknown)[0]}'")
        self.__dict__.update(_DEFAULTS)
        self.__dict__.update(values)

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.FIELDS}

    def copy(self) -> "Limits":
        return Limits(**self.as_dict())

    def __eq__(self, other):
        return type(other) is Limits and self.as_dict() == other.as_dict()

    __hash__ = None

    def __repr__(self):
        return "Limits(" + ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items()) + ")"

    @classmethod
    def open_ended(cls, **flags):
        """The prompt, `run FILE` and pipes: no step or time limit unless a flag sets one."""
        return cls(**{"max_steps": None, "time_limit": None, **flags})

    @classmethod
    def for_lessons(cls, **flags):
        """Lesson steps: 10^7 steps and 10 s per top-level statement unless a flag says otherwise."""
        return cls(**flags)


LIMITS = Limits()
FLAGS: dict = {}     # budget flags of the command line, for subcommands that make their own sessions


def check_numel(numel: int, shape=None) -> None:
    """Refuse a tensor of `numel` elements before it is allocated (Python ints: no wrap-around)."""
    if numel > (1 << 22):
        check_memory(numel * 4)
    if numel > LIMITS.max_elements:
        what = f" of shape {tuple(shape)}" if shape is not None else ""
        raise BudgetExceeded(
            "elements",
            f"tensor{what} would have {numel} elements, over the limit of "
            f"{LIMITS.max_elements} (raise it with --max-elements)",
            "--max-elements",
        )


# Multiply-adds per second one statement surely gets (about 3x what a loaded 2-core machine
# measured): BLAS for floating types, NumPy's own loops for integers.
WORK_RATE = {"float": 3e10, "int": 1e9}


def check_work(ops: int, kind: str) -> None:
    """Refuse a matrix product (one C call) that could not end within the time limit, before
    it starts: inside it neither the step budget nor Ctrl-C can stop it."""
    limit = LIMITS.time_limit
    if limit is None or ops <= limit * WORK_RATE[kind]:
        return
    raise BudgetExceeded(
        "time",
        f"time limit exceeded before it started: this matrix product needs about {ops:.2g} multiply-adds, "
        f"more than {limit:g} s allows (raise it with --time-limit)",
        "--time-limit",
    )


_PAGE = 4096
_BASELINE = [None]


def _rss() -> int:
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):  # not Linux: no live-memory budget
        return 0


def check_memory(nbytes: int) -> None:
    """Refuse more tensor data once the process has grown by LIMITS.max_bytes.

    Called for large arrays only (the engine checks arrays over 16 MiB), so reading the
    resident size costs nothing on the hot path; growth of the process approximates the
    live tensor data, which is what dominates a session's memory.
    """
    rss = _rss()
    if not rss:
        return
    if _BASELINE[0] is None:
        _BASELINE[0] = rss
    if rss - _BASELINE[0] + nbytes > LIMITS.max_bytes:
        raise BudgetExceeded(
            "memory",
            f"tensor memory limit exceeded: more than {LIMITS.max_bytes} bytes of live tensor data "
            f"(raise it with --max-memory)",
            "--max-memory",
        )
