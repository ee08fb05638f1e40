"""Expected output of a code step, doctest style.

`...` in the expected text matches any text (also across lines), and any
`0x<hex>` address matches any other address, so PyTorch's own output can be
pasted as it is. Trailing spaces and trailing blank lines are ignored.
"""
from __future__ import annotations

import difflib
import re

_TOKENS = re.compile(r"(\.\.\.|0x[0-9a-fA-F]+)")


def normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n")).strip("\n")


def _pattern(expected: str) -> re.Pattern[str]:
    parts = []
    for piece in _TOKENS.split(normalise(expected)):
        if piece == "...":
            parts.append(".*?")
        elif _TOKENS.fullmatch(piece):
            parts.append("0x[0-9a-fA-F]+")
        else:
            parts.append(re.escape(piece))
    return re.compile("".join(parts), re.DOTALL)


def matches(expected: str, actual: str) -> bool:
    return _pattern(expected).fullmatch(normalise(actual)) is not None


def difference(expected: str, actual: str) -> str:
    """A unified diff for reports ('' when the texts match)."""
    if matches(expected, actual):
        return ""
    lines = difflib.unified_diff(normalise(expected).split("\n"), normalise(actual).split("\n"),
                                 "expected", "actual", lineterm="")
    return "\n".join(lines)
