"""Exceptions shared by the engine and the language.

Budget and interrupt signals derive from BaseException on purpose: user code's
`except Exception` (interpreted by gradrepl.lang) must never catch them, and
the engine's own `except Exception` clean-up paths must not swallow them.
"""


class BudgetExceeded(BaseException):
    """A resource budget ran out: steps, time, elements, memory, output, ..."""

    def __init__(self, budget: str, message: str, flag: str | None = None):
        super().__init__(message)
        self.budget = budget
        self.flag = flag

    @property
    def message(self) -> str:
        return str(self.args[0])


class Interrupted(BaseException):
    """Ctrl-C arrived while a statement was running."""


class Record:
    """A plain value class: `__init__` is written out by the subclass; equality and repr go
    by the names in FIELDS, as a dataclass's would. (dataclasses itself, with the code it
    compiles for every class, is a few percent of the start-up.)"""

    FIELDS: tuple = ()
    __hash__ = None

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.FIELDS)

    def __repr__(self):
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.FIELDS)
        return f"{self.__class__.__qualname__}({inner})"

    def as_dict(self) -> dict:
        return {n: getattr(self, n) for n in self.FIELDS}
