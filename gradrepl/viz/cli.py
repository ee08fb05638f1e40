"""`gradrepl graph|explain|gradcheck FILE NAME ...`: run FILE, then look at NAME.

FILE runs as in script mode (`gradrepl run`), except that its own output goes to
stderr so that stdout carries only the picture, the trace or the table (`gradrepl
graph f.py z --format dot > z.dot` works). Exit status: 0 done (gradcheck: passed),
1 an error in FILE, a problem with NAME, or a failed gradcheck, 2 bad usage.
"""
import argparse
import os
import sys

from gradrepl.messages import msg
from gradrepl.viz.graph import FORMATS, VizError

EXIT_OK, EXIT_USER, EXIT_USAGE = 0, 1, 2


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise _Usage()


def _columns(text):
    value = int(text)
    if value < 20:
        raise argparse.ArgumentTypeError(f"at least 20 columns: {text}")
    return value


def _parser(command):
    about = {
        "graph": "Run FILE, then draw the autograd graph that produced NAME.",
        "explain": "Run FILE, then walk the chain rule from NAME node by node, as backward() runs it "
                   "(the file's .grad values are not changed).",
        "gradcheck": "Run FILE, then compare autograd's gradients of NAME with central finite differences "
                     "in float64 for every leaf.",
    }[command]
    status = ("0 done, 1 a failed check, " if command == "gradcheck" else "0 done, 1 ") + \
        "an error in FILE or a problem with NAME, 2 bad usage"
    parser = _Parser(prog=f"gradrepl {command}", description=about,
                     epilog=f"The file's own output goes to standard error. Exit status: {status}.")
    parser.add_argument("file", help="the script to run ('-' for standard input)")
    parser.add_argument("name", help="the variable holding the tensor")
    if command == "graph":
        parser.add_argument("--format", "-f", choices=FORMATS, default=None,
                            help="text (default), dot (Graphviz), mermaid, svg or png (need Graphviz's dot); "
                                 "default from -o's suffix, else text")
        parser.add_argument("-o", "--output", metavar="OUT", help="write to OUT instead of standard output")
        parser.add_argument("--no-collapse", action="store_true",
                            help="draw every node, even of loops repeated thousands of times")
    else:
        parser.add_argument("--vector", metavar="V",
                            help="a variable of FILE holding the gradient for a non-scalar NAME (default: ones)")
    parser.add_argument("--width", type=_columns, default=None, help="columns for text output (default: terminal)")
    parser.add_argument("--lang", choices=("en", "zh"), default=None,
                        help="language of gradrepl's own words (default: from LC_ALL / LC_MESSAGES / LANG)")
    return parser


def main(args: list) -> int:
    """`args[0]` is the subcommand (graph, explain or gradcheck)."""
    if not args or args[0] not in ("graph", "explain", "gradcheck"):
        print("gradrepl: expected graph, explain or gradcheck", file=sys.stderr)
        return EXIT_USAGE
    command = args[0]
    try:
        opts = _parser(command).parse_args(args[1:])
    except _Usage:
        return EXIT_USAGE
    except SystemExit as e:   # --help
        return e.code if isinstance(e.code, int) else EXIT_OK
    from gradrepl.messages import default_lang, localize
    opts.lang = opts.lang or default_lang()
    text = _read(opts.file, command)
    if text is None:
        return EXIT_USAGE
    from gradrepl.errors import BudgetExceeded
    try:
        session, rng_state = _run(text, opts.file)
        if session is None:
            return EXIT_USER
        return _COMMANDS[command](session, opts, text, rng_state)
    except VizError as e:
        print(f"gradrepl {command}: {localize(str(e), opts.lang)}", file=sys.stderr)
        return EXIT_USER
    except BudgetExceeded as e:
        print(f"gradrepl {command}: {e.message}", file=sys.stderr)
        return EXIT_USER


def _read(path, command):
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        print(f"gradrepl {command}: cannot read '{path}': {reason}", file=sys.stderr)
        return None


def _run(text, filename):
    """Run the file like script mode, its output on stderr; (session, RNG state at start) or (None, None)."""
    from gradrepl.engine import functions as F
    from gradrepl.lang import Session, run_source
    from gradrepl.limits import FLAGS, Limits
    from gradrepl.viz.gradcheck import keeping_saved

    def to_stderr(out):
        sys.stderr.write(out)

    def report(error):
        print(error.format(), file=sys.stderr, flush=True)

    session = Session(limits=Limits.open_ended(**FLAGS), write=to_stderr)
    session.report = report
    session.warn = lambda category, message: print(f"{category}: {message}", file=sys.stderr)
    rng_state = F.get_rng_state()
    with keeping_saved():       # NAME's graph can be replayed after the file's own backward()
        result = run_source(text, session, filename=filename, trusted=False)
    if not result.ok:
        return None, None
    return session, rng_state


def _console(width):
    from rich.console import Console
    plain = not sys.stdout.isatty() or "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb"
    if width is None and plain:
        width = 80
    return Console(file=sys.stdout, width=width, no_color=plain, color_system=None if plain else "auto",
                   highlight=False, soft_wrap=False)


def _graph(session, opts, text, rng_state):
    from gradrepl.viz import _SUFFIX_FORMATS, _graph as model, render
    from pathlib import Path

    fmt = opts.format or (_SUFFIX_FORMATS.get(Path(opts.output).suffix.lower()) if opts.output else None) or "text"
    g = model(session, opts.name, not opts.no_collapse)
    if fmt in ("svg", "png") and not opts.output:
        opts.output = f"{opts.name}.{fmt}"
    if opts.output:
        data = render(g, fmt, opts.width or 100)
        try:
            Path(opts.output).write_bytes(data)
        except OSError as e:
            raise VizError(msg("vizerr.write", "en", path=opts.output, reason=str(e.strerror or e))) from None
        print(f"wrote {opts.output}", file=sys.stderr)
        return EXIT_OK
    if fmt == "text":
        from gradrepl.viz.graph import to_tree
        _console(opts.width).print(to_tree(g, opts.lang))
    else:
        sys.stdout.write(render(g, fmt).decode())
    return EXIT_OK


def _explain(session, opts, text, rng_state):
    from gradrepl.viz import repl_explain
    session.succeeded[:] = [text]    # the whole file, for the symbolic summary
    _console(opts.width).print(repl_explain(session, opts.name, opts.vector, lang=opts.lang))
    return EXIT_OK


def _gradcheck(session, opts, text, rng_state):
    from gradrepl.viz import lookup
    from gradrepl.viz.gradcheck import gradcheck_renderable, gradcheck_source

    lookup(session.namespace, opts.name)
    v = None if opts.vector is None else lookup(session.namespace, opts.vector)
    res = gradcheck_source(text, session.namespace, opts.name, vector=v, limits=session.limits,
                           rng_state=rng_state, filename=opts.file)
    _console(opts.width).print(gradcheck_renderable(res, opts.lang))
    return EXIT_OK if res.ok else EXIT_USER


_COMMANDS = {"graph": _graph, "explain": _explain, "gradcheck": _gradcheck}
