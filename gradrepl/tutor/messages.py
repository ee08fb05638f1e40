"""The lesson players' commands and yes/no answers (what the players say: gradrepl.messages)."""
from __future__ import annotations

COMMANDS = (":hint", ":solution", ":check", ":skip", ":back", ":restart", ":reset", ":quit")


def yes(answer: str, default: bool) -> bool:
    """A [Y/n] or [y/N] answer; Enter takes the default."""
    answer = answer.strip().lower()
    if not answer:
        return default
    return answer in ("y", "yes", "是", "好")
