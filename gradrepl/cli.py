"""Command line: `gradrepl [run FILE | lesson ... | graph ... | explain ... | gradcheck ...]`.

Script mode (run FILE, or stdin when it is not a terminal) prints exactly what
Python with PyTorch prints for the same file; errors go to stderr as
`FILE:LINE`, the source line, the `Type: message` line and an optional hint.
It never imports prompt_toolkit or rich.

Exit status: 0 success, 1 an error in the code, 2 usage, 70 internal error,
130 interrupted by Ctrl-C.
"""
import argparse
import os
import sys

from gradrepl import __version__
from gradrepl.limits import Limits

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPT = 0, 1, 2, 70, 130

_DEFAULTS = Limits()
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
only the statement that hit it (user code's `except` never catches it).

subcommands:
  run FILE [--keep-going]   run a file in script mode (output diffable against PyTorch)
  lesson ...                lessons that replay the autograd tutorials (gradrepl lesson --help)
  graph FILE NAME           draw the autograd graph that produced NAME
  explain FILE NAME         walk the chain rule from NAME, step by step
  gradcheck FILE NAME       compare autograd gradients with finite differences

With no subcommand gradrepl starts the REPL on a terminal and runs standard
input as a script otherwise.  Exit status: 0 ok, 1 error in the code,
2 usage, 70 internal error, 130 Ctrl-C."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise _UsageError()


class _UsageError(Exception):
    pass


def _positive(kind):
    def convert(text):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive: {text}")
        return value
    return convert


def _add_budget_flags(parser):
    group = parser.add_argument_group("budgets")
    for flag, field, kind, text in _BUDGETS:
        group.add_argument(flag, dest=field, type=_positive(kind), metavar="N",
                           help=f"{text} (default {_show(getattr(_DEFAULTS, field))})")


def limits_from(opts):
    """Limits from parsed budget flags (the REPL's start(opts) uses it too)."""
    limits = Limits()
    for _, field, _, _ in _BUDGETS:
        value = getattr(opts, field, None)
        if value is not None:
            setattr(limits, field, value)
    return limits


def _parser():
    parser = _Parser(prog="gradrepl", description="An interactive autograd REPL and tutor.",
                     epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"gradrepl {__version__}")
    parser.add_argument("--no-color", action="store_true",
                        help="plain text in the REPL (also NO_COLOR=1 or TERM=dumb)")
    _add_budget_flags(parser)
    return parser


def _run_parser():
    parser = _Parser(prog="gradrepl run", description="Run FILE in script mode.",
                     epilog=_EPILOG.split("\n\nsubcommands")[0],
                     formatter_class=argparse.RawDescriptionHelpFormatter)
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
    rc = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(rc if isinstance(rc, int) else 1)


def _internal(exc):
    print(f"gradrepl: internal error ({type(exc).__name__}: {str(exc)[:200]}); please report it "
          f"with the input that caused it", file=sys.stderr)


def _main(argv):
    if argv and argv[0] in _DELEGATED:
        module_name, with_name = _DELEGATED[argv[0]]
        import importlib
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            print(f"gradrepl {argv[0]}: not available in this build", file=sys.stderr)
            return EXIT_USAGE
        return module.main(argv if with_name else argv[1:])
    if argv and argv[0] == "run":
        opts = _run_parser().parse_args(argv[1:])
        if opts.file == "-":
            return run_script(sys.stdin.read(), "<stdin>", limits_from(opts), opts.keep_going)
        try:
            with open(opts.file, encoding="utf-8-sig") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            print(f"gradrepl run: cannot read '{opts.file}': {reason}", file=sys.stderr)
            return EXIT_USAGE
        return run_script(text, opts.file, limits_from(opts), opts.keep_going)
    opts = _parser().parse_args(argv)
    if sys.stdin is not None and not sys.stdin.isatty():
        try:
            text = sys.stdin.read()
        except UnicodeDecodeError as e:
            print(f"gradrepl: standard input is not UTF-8 text: {e}", file=sys.stderr)
            return EXIT_USAGE
        return run_script(text, "<stdin>", limits_from(opts), keep_going=False)
    try:
        from gradrepl.repl import start
    except ImportError:
        print("gradrepl: the interactive REPL is not available in this build; "
              "run a file with `gradrepl run FILE`", file=sys.stderr)
        return EXIT_USAGE
    return start(opts)


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


def run_script(text, filename, limits, keep_going):
    """Script mode: plain text, program output on stdout, errors on stderr."""
    from gradrepl.lang import Session, run_source

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass

    stdout = _Stdout()

    def report(error):
        stdout.flush()
        print(error.format(), file=sys.stderr, flush=True)

    def warn(category, message):
        stdout.flush()
        print(f"{category}: {message}", file=sys.stderr, flush=True)

    session = Session(limits=limits, write=stdout.write)
    session.hard_stop = True
    session.report = report
    session.warn = warn
    result = run_source(text, session, filename=filename, trusted=False, keep_going=keep_going)
    stdout.flush()
    if result.interrupted:
        return EXIT_INTERRUPT
    if any(e.kind == "internal" for e in result.errors):
        return EXIT_INTERNAL
    return EXIT_OK if result.ok else EXIT_USER
