"""Run sources through gradrepl's language, and through CPython itself as the oracle."""
import contextlib
import io
import textwrap

from gradrepl.lang import Session, run_source
from gradrepl.limits import Limits


def run(src, *, keep_going=False, trusted=False, echo="toplevel", **limits):
    """(stdout text, RunResult) of running `src` in a fresh session."""
    out = []
    session = Session(limits=Limits(**limits), write=out.append)
    result = run_source(textwrap.dedent(src), session, filename="case.py", trusted=trusted,
                        keep_going=keep_going, echo=echo)
    return "".join(out), result


def python_oracle(src):
    """(stdout, 'Type: message' or None) from CPython with the torch_oracle.py echo rules.

    Only for sources without torch: the reference for plain-Python semantics.
    """
    import ast
    import warnings
    src = textwrap.dedent(src)
    tree = ast.parse(src)
    ns = {"__name__": "__main__"}
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        for node in tree.body:
            try:
                if isinstance(node, ast.Expr):
                    value = eval(compile(ast.Expression(node.value), "case.py", "eval"), ns)
                    if value is not None:
                        print(repr(value))
                else:
                    exec(compile(ast.Module(body=[node], type_ignores=[]), "case.py", "exec"), ns)
            except Exception as e:  # noqa: BLE001
                msg = str(e).splitlines()[0] if str(e) else ""
                return buf.getvalue(), f"{type(e).__name__}: {msg}".rstrip()   # the oracle's line
    return buf.getvalue(), None


def headline(result):
    return result.errors[0].headline if result.errors else None
