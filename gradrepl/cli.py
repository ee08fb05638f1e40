"""Command line: `gradrepl [run FILE | lesson ... | graph ... | explain ... | gradcheck ...]`.

Script mode (run FILE, or stdin when it is not a terminal) prints exactly what
Python with PyTorch prints for the same file; errors go to stderr as
`FILE:LINE`, the source line, the `Type: message` line and an optional hint.
It never imports prompt_toolkit or rich.

Exit status: 0 success, 1 an error in the code, 2 usage, 70 internal error,
130 interrupted by Ctrl-C.
"""
import os
import sys

from gradrepl import __version__
from gradrepl.limits import Limits

from gradrepl.usage import EXIT_INTERNAL, EXIT_INTERRUPT, EXIT_OK, EXIT_USAGE, EXIT_USER, \
    UsageError as _UsageError

_BUDGETS = (
    # flag, Limits field, type, help
    ("--max-steps", "max_steps", int, "interpreter steps (loop iterations, calls, "
     "comprehension items, hooks) per top-level statement"),
    ("--time-limit", "time_limit", float, "seconds of wall time per top-level statement"),
    ("--max-depth", "max_depth", int, "nested function calls"),
    ("--max-elements", "max_elements", int, "elements in one tensor"),
    ("--max-memory", "max_bytes", int, "bytes of live tensor data"),
    ("--max-int-bits", "max_int_bits", int, "bits in an integer result"),
    ("--max-items", "max_items", int, "items in a string, list, tuple, dict or set"),
    ("--max-output", "max_output", int, "characters printed by one top-level statement"),
    ("--max-source", "max_source", int, "characters of source in one top-level statement"),
    ("--max-ast-depth", "max_ast_depth", int, "nesting depth of one statement's syntax tree"),
)



def _show(value):
    return f"{value:g}" if isinstance(value, float) else str(value)


_EPILOG = """Budgets are checked before the work is done; a budget error names its flag and ends
only the statement that hit it (user code's `except` never catches it). Budget flags go
before or after the subcommand. The step and time defaults hold for lesson steps; the
prompt, `run FILE` and piped input have no step or time limit unless a flag sets one.

subcommands:
  run FILE [--keep-going]   run a file in script mode (output diffable against PyTorch)
  export FILE [-o OUT]      the file (or a :save'd session) as a script for real PyTorch
  lesson ...                lessons that replay the autograd tutorials (gradrepl lesson --help)
  graph FILE NAME           draw the autograd graph that produced NAME
  explain FILE NAME         walk the chain rule from NAME, step by step
  gradcheck FILE NAME       compare autograd gradients with finite differences

With no subcommand gradrepl starts the REPL on a terminal and runs standard
input as a script otherwise.  Exit status: 0 ok, 1 error in the code,
2 usage, 70 internal error, 130 Ctrl-C."""


def _positive(kind):
    def convert(text):
        value = kind(text)
        if value <= 0:
            import argparse
            raise argparse.ArgumentTypeError(f"must be positive: {text}")
        return value
    return convert


def _Parser(**kwargs):
    """The commands' argument parser (gradrepl.usage.Parser: built on first use)."""
    from gradrepl import usage
    return usage.Parser(**kwargs)


def _raw_description():
    import argparse
    return argparse.RawDescriptionHelpFormatter


def _add_budget_flags(parser):
    defaults = Limits()
    group = parser.add_argument_group("budgets")
    for flag, field, kind, text in _BUDGETS:
        default = _show(getattr(defaults, field))
        where = " in lesson steps" if field in ("max_steps", "time_limit") else ""
        group.add_argument(flag, dest=field, type=_positive(kind), metavar="N",
                           help=f"{text} (default {default}{where})")


def budget_flags(opts) -> dict:
    """{Limits field: value} for the budget flags given on the command line."""
    return {field: getattr(opts, field) for _, field, _, _ in _BUDGETS
            if getattr(opts, field, None) is not None}


def limits_from(opts):
    """The prompt's, `run FILE`'s and pipes' limits: no step or time limit unless a flag sets one."""
    return Limits.open_ended(**budget_flags(opts))


def _split_budget_flags(argv):
    """Budget flags wherever they are (`gradrepl --time-limit 5 run F` or `run F --time-limit
    5`): (the flags, the other arguments in order). Nothing after `--` is a flag."""
    names = {flag for flag, _, _, _ in _BUDGETS}
    flags, rest = [], []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest.extend(argv[i:])
            break
        name = arg.split("=", 1)[0]
        if name in names:
            take = 1 if "=" in arg else 2
            flags.extend(argv[i:i + take])
            i += take
            continue
        rest.append(arg)
        i += 1
    return flags, rest


def _lang_after_command(argv):
    """`gradrepl --lang zh lesson list` = `gradrepl lesson list --lang zh`: a leading --lang
    moves after the subcommands that take it (lesson, graph, explain, gradcheck)."""
    i, moved = 0, []
    while i < len(argv) and argv[i].split("=", 1)[0] == "--lang":
        take = 1 if "=" in argv[i] else 2
        moved.extend(argv[i:i + take])
        i += take
    if moved and i < len(argv) and argv[i] in _DELEGATED:
        return argv[i:] + moved
    return argv


def _parser():
    parser = _Parser(prog="gradrepl", description="An interactive autograd REPL and tutor.",
                     epilog=_EPILOG, formatter_class=_raw_description())
    parser.add_argument("--version", action="version", version=f"gradrepl {__version__}")
    parser.add_argument("--no-color", action="store_true",
                        help="plain text in the REPL (also NO_COLOR=1 or TERM=dumb)")
    parser.add_argument("--keep-going", action="store_true",
                        help="piped input: report each failing statement and go on with the next one")
    parser.add_argument("--lang", choices=("en", "zh"), default=None,
                        help="language of the REPL's help, tables, hints and tools (default: from LC_ALL / "
                             "LC_MESSAGES / LANG; :lang switches)")
    _add_budget_flags(parser)
    return parser


def _budget_parser():
    parser = _Parser(prog="gradrepl", add_help=False)
    _add_budget_flags(parser)
    return parser


_SUBCOMMANDS = ("run", "lesson", "graph", "explain", "gradcheck", "export")


def _not_a_command(word):
    """`gradrepl foo.py`: say how to run a file instead of argparse's 'unrecognized arguments'."""
    print(_parser().format_usage().rstrip(), file=sys.stderr)
    if word.endswith(".py") or os.path.isfile(word):
        print(f"gradrepl: error: '{word}' is not a command; to run the file: gradrepl run {word}",
              file=sys.stderr)
    else:
        print(f"gradrepl: error: unknown command '{word}' (commands: {', '.join(_SUBCOMMANDS)}; "
              "gradrepl --help)", file=sys.stderr)
    return EXIT_USAGE


def _run_parser():
    parser = _Parser(prog="gradrepl run", description="Run FILE in script mode.",
                     epilog=_EPILOG.split("\n\nsubcommands")[0],
                     formatter_class=_raw_description())
    parser.add_argument("file", help="the script ('-' for standard input)")
    parser.add_argument("--keep-going", action="store_true",
                        help="report each failing statement and go on with the next one")
    _add_budget_flags(parser)
    return parser


_DELEGATED = {"lesson": ("gradrepl.repl.lesson", False), "graph": ("gradrepl.viz.cli", True),
              "explain": ("gradrepl.viz.cli", True), "gradcheck": ("gradrepl.viz.cli", True)}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # An autograd graph is tens of thousands of small objects that live until backward;
    # the default thresholds re-scan them over and over (about 20% of a long loop's time).
    import gc
    gc.set_threshold(20_000, 20, 20)
    try:
        return _main(argv)
    except _UsageError:
        return EXIT_USAGE
    except KeyboardInterrupt:
        return EXIT_INTERRUPT
    except SystemExit as e:   # argparse --help / --version
        return e.code if isinstance(e.code, int) else EXIT_OK
    except BaseException as e:  # noqa: BLE001 - never a traceback for the user
        _internal(e)
        return EXIT_INTERNAL


def entry() -> None:
    """The process entry point (console script, python -m gradrepl): main(), then exit at
    once. Tearing down a session's autograd graph object by object at interpreter exit
    costs up to a third of a short script's run time, and nothing is left to clean up."""
    import gc
    gc.disable()        # start-up makes ~45,000 lasting objects and frees few: see _collector_on
    _START_UP.append(True)
    from gradrepl.worker.front import supervise
    rc = supervise(main, sys.argv[1:], resume=run_script)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(rc if isinstance(rc, int) else 1)


_START_UP = []      # [True] from entry() until the collector is back on


def _collector_on():
    """Start-up is over (modules imported, the session's tables built): its objects are
    moved where the collector never scans them again (gc.freeze: they live as long as the
    process), and the collector runs again. A no-op unless entry() turned it off."""
    if _START_UP:
        _START_UP.clear()
        import gc
        gc.freeze()
        gc.enable()


def _internal(exc):
    print(f"gradrepl: internal error ({type(exc).__name__}: {str(exc)[:200]}); please report it "
          f"with the input that caused it", file=sys.stderr)


def _main(argv):
    from gradrepl import limits as limits_module
    if len(argv) == 2 and argv[0] == "run" and not argv[1].startswith("-"):
        # `gradrepl run FILE`, no flags: what the parsers below would make of it, without
        # building them (argparse is a tenth of the start-up)
        limits_module.FLAGS.clear()
        return _run_file(argv[1], Limits.open_ended(), keep_going=False)
    flags, argv = _split_budget_flags(argv)
    budgets = budget_flags(_budget_parser().parse_args(flags)) if flags else {}
    limits_module.FLAGS.clear()       # for subcommands that make their own sessions
    limits_module.FLAGS.update(budgets)
    argv = _lang_after_command(argv)
    if argv and argv[0] in _DELEGATED:
        _collector_on()
        module_name, with_name = _DELEGATED[argv[0]]
        import importlib
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            print(f"gradrepl {argv[0]}: not available in this build", file=sys.stderr)
            return EXIT_USAGE
        return module.main(argv if with_name else argv[1:])
    if argv and argv[0] == "export":
        _collector_on()
        from gradrepl.export import main as export_main
        return export_main(argv[1:])
    if argv and argv[0] == "run":
        opts = _run_parser().parse_args(argv[1:])
        opts.__dict__.update(budgets)
        return _run_file(opts.file, limits_from(opts), opts.keep_going)
    if argv and not argv[0].startswith("-"):
        return _not_a_command(argv[0])
    opts = _parser().parse_args(argv)
    opts.__dict__.update(budgets)
    if sys.stdin is not None and not sys.stdin.isatty():
        try:
            text = sys.stdin.read()
        except UnicodeDecodeError as e:
            print(f"gradrepl: standard input is not UTF-8 text: {e}", file=sys.stderr)
            return EXIT_USAGE
        return run_script(text, "<stdin>", limits_from(opts), keep_going=opts.keep_going)
    _collector_on()
    try:
        from gradrepl.repl import start
    except ImportError:
        print("gradrepl: the interactive REPL is not available in this build; "
              "run a file with `gradrepl run FILE`", file=sys.stderr)
        return EXIT_USAGE
    return start(opts, lang=opts.lang)


def _run_file(path, limits, keep_going):
    """`gradrepl run PATH` ('-': standard input)."""
    if path == "-":
        return run_script(sys.stdin.read(), "<stdin>", limits, keep_going)
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        print(f"gradrepl run: cannot read '{path}': {reason}", file=sys.stderr)
        return EXIT_USAGE
    return run_script(text, path, limits, keep_going)


class _Stdout:
    """Program output; once the reader has gone (`| head`), the rest is dropped quietly."""

    def __init__(self):
        self.closed = False

    def _guard(self, action, *args):
        if self.closed:
            return
        try:
            action(*args)
        except BrokenPipeError:
            self.closed = True
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())

    def write(self, text):
        self._guard(sys.stdout.write, text)

    def flush(self):
        self._guard(sys.stdout.flush)


NUMPY_DOCS = ("numpy._core._add_newdocs", "numpy._core._add_newdocs_scalars")


def _numpy_without_docstrings():
    """Script mode imports NumPy without the docstrings of its C-defined objects.

    NumPy 2's numpy._core imports _add_newdocs and _add_newdocs_scalars last, only to attach
    docstrings to ndarray, the ufuncs and the scalar types (their own docstrings say so;
    NumPy's documentation build mocks the second out): an eighth of `import numpy`. A script
    never reads them (help() reads docs.json; user code cannot reach `__doc__`), so an empty
    module stands in for each; the REPL, whose completion reads C signatures from those
    docstrings, and every in-process use import NumPy whole. A no-op once NumPy is loaded."""
    if "numpy" in sys.modules:
        return
    import types
    for name in NUMPY_DOCS:
        sys.modules.setdefault(name, types.ModuleType(name))


def run_script(text, filename, limits, keep_going):
    """Script mode: plain text, program output on stdout, errors on stderr."""
    _numpy_without_docstrings()
    from gradrepl.lang import Session, run_source
    from gradrepl.worker import monitor

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass

    stdout = _Stdout()

    def report(error):
        stdout.flush()
        print(error.format(), file=sys.stderr, flush=True)

    shown = set()

    def warn(category, message):
        """As Python shows a warning: `file:line: Category: message` and the source line,
        once per place and text (the default filter), at the running statement's line."""
        where, line, source = session.where or (filename, 0, "")
        key = (category, message, where, line)
        if key in shown:
            return
        shown.add(key)
        stdout.flush()
        text = f"{where}:{line}: {category}: {message}"
        if source.strip():
            text += "\n  " + source.strip()
        print(text, file=sys.stderr, flush=True)

    session = Session(limits=limits, write=stdout.write)
    _collector_on()
    session.hard_stop = monitor.ACTIVE is None   # a worker is stopped by its front instead
    monitor.script_spec(text, filename, limits, keep_going)
    session.report = report
    session.warn = warn
    result = run_source(text, session, filename=filename, trusted=False, keep_going=keep_going)
    stdout.flush()
    if result.interrupted:
        return EXIT_INTERRUPT
    if any(e.kind == "internal" for e in result.errors):
        return EXIT_INTERNAL
    return EXIT_OK if result.ok else EXIT_USER
