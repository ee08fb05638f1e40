"""The interactive REPL (prompt_toolkit input, rich output, tutor displays).

`start(args, lesson=None, lang=None) -> int` is what gradrepl/cli.py calls when
standard input is a terminal; `args` carries the budget options (gradrepl.limits.Limits
field names) and `no_color` (any missing attribute means the default). With
`lesson` (an id, number or id prefix) the REPL opens playing that lesson, as
`:lesson NAME` would: the way `gradrepl lesson NAME` can give the learner the full
prompt. Importing this package is cheap: the REPL's libraries load only when
`start` runs.
"""


def start(args, lesson=None, lang=None) -> int:
    from gradrepl.repl.repl import start as run

    return run(args, lesson=lesson, lang=lang)
