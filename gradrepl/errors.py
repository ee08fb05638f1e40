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
