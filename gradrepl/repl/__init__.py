"""The interactive REPL (prompt_toolkit input, rich output, tutor displays).

`start(args) -> int` is what gradrepl/cli.py calls when standard input is a
terminal; `args` carries the budget options (gradrepl.limits.Limits field names)
and, when the CLI offers it, `no_color`. Importing this package is cheap: the
REPL's libraries load only when `start` runs.
"""


def start(args) -> int:
    from gradrepl.repl.repl import start as run

    return run(args)
