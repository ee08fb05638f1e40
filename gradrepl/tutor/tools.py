"""Tool steps: gradrepl's own tools (`:explain out`, `:graph out`, ...) shown by a lesson.

Lesson code is untrusted and runs no meta commands (DECISIONS: trust), so a lesson asks
the tutor for a tool with a ```tool block. Only these read-only commands exist there, with
variable names for arguments (no files): they look at the session and change nothing in it
(gradrepl.viz's promise).

    :explain NAME [V]     the chain rule, node by node (V: the gradient for a non-scalar NAME)
    :graph NAME [mermaid|dot]
    :gradcheck NAME [V]   autograd against finite differences
    :jacobian Y X         the full Jacobian dY/dX
"""
from __future__ import annotations

from dataclasses import dataclass

TOOLS = {":explain": (1, 2), ":graph": (1, 2), ":gradcheck": (1, 2), ":jacobian": (2, 2)}
GRAPH_FORMATS = ("text", "mermaid", "dot")


@dataclass(frozen=True)
class ToolCall:
    command: str
    args: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join((self.command, *self.args))


def parse_tool(text: str) -> ToolCall:
    """One line `:command ARG ...`; ValueError says what is wrong."""
    lines = [line for line in text.strip().split("\n") if line.strip()]
    if len(lines) != 1:
        raise ValueError("a tool step is one line, e.g. ':explain out'")
    command, *args = lines[0].split()
    if command not in TOOLS:
        raise ValueError(f"unknown tool {command!r}; tools: {', '.join(TOOLS)}")
    low, high = TOOLS[command]
    if not low <= len(args) <= high:
        raise ValueError(f"{command} takes {low} to {high} arguments")
    for index, arg in enumerate(args):
        graph_format = command == ":graph" and index == 1
        if graph_format and arg not in GRAPH_FORMATS:
            raise ValueError(f":graph NAME [{'|'.join(GRAPH_FORMATS)}] (a lesson writes no files)")
        if not graph_format and not (arg.isidentifier() and not arg.startswith("_")):
            raise ValueError(f"{arg!r} is not a variable name")
    return ToolCall(command, tuple(args))


def run_tool(session, call: ToolCall, width: int | None = None, rng_state=None, lang: str = "en"):
    """The tool's rich renderable (or text) for `session`, gradrepl's words in `lang`; raises
    gradrepl.viz.VizError (its message in English: gradrepl.messages.localize)."""
    import gradrepl.viz as viz

    args = call.args
    if call.command == ":explain":
        return viz.repl_explain(session, *args, width=width, lang=lang)
    if call.command == ":graph":
        return viz.repl_graph(session, args[0], width=width, fmt=(args[1:] or ["text"])[0], lang=lang)
    if call.command == ":gradcheck":
        return viz.repl_gradcheck(session, *args, width=width, rng_state=rng_state, lang=lang)
    return viz.repl_jacobian(session, args[0], args[1], width=width, lang=lang)
