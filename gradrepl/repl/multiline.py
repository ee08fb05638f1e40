"""When Enter runs the input and when it opens a new line, and how far that line is indented.

Python's own REPL rules: an unfinished statement (open bracket, trailing backslash,
unterminated triple-quoted string, a block header ending in `:`) continues, and a
compound statement (def / for / while / if / with / try / class) ends with a blank line.
Nothing here runs code: `ast.parse` and `codeop` only parse and compile.
"""
import ast
import codeop
import re
import warnings

INDENT = "    "
_BLOCKS = (ast.If, ast.For, ast.While, ast.With, ast.FunctionDef, ast.ClassDef, ast.Try,
           ast.AsyncFor, ast.AsyncWith, ast.AsyncFunctionDef, ast.Match, ast.TryStar)
# after these the next line goes one level out, as in IPython and ptpython
_DEDENT_AFTER = re.compile(r"(return|pass|break|continue|raise)\b")
_COMMENT = re.compile(r"\s*#[^'\"]*$")
_HEADER = re.compile(r"\s*(@|(if|elif|else|for|while|with|def|class|try|except|finally|async)\b.*:$)")


def is_meta(text: str) -> bool:
    """A meta command (`:help`, `:vars`, ...): no Python statement starts with a colon."""
    return text.lstrip().startswith(":")


def needs_more(text: str) -> bool:
    """True when Enter should continue the input on a new line instead of running it."""
    if not text.strip() or is_meta(text):
        return False
    lines = text.split("\n")
    if len(lines) > 1 and not lines[-1].strip():
        return False                       # a blank line ends a block
    with warnings.catch_warnings():        # SyntaxWarnings of half-typed code stay quiet
        warnings.simplefilter("ignore")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            # Inside a block, Enter opens a new line as in ptpython and IPython: the
            # half-typed block is checked when a blank line (or Esc Enter) submits it.
            return _unfinished(text) or _in_block(lines)
        except (ValueError, RecursionError, MemoryError):
            return False                   # run it: the interpreter reports the problem
    return bool(tree.body) and isinstance(tree.body[-1], _BLOCKS)


def _in_block(lines) -> bool:
    """A compound statement (def, for, if, ..., or a decorator) has been opened."""
    return any(_HEADER.match(_COMMENT.sub("", line).rstrip()) for line in lines)


def _unfinished(text: str) -> bool:
    try:
        return codeop.compile_command(text, "<input>", "exec") is None
    except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
        return False


def next_indent(line: str) -> str:
    """Indentation for the line after `line`: +4 after a `:`, -4 after return/pass/break."""
    width = len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))
    code = _COMMENT.sub("", line).rstrip()
    if code.endswith(":"):
        width += len(INDENT)
    elif _DEDENT_AFTER.match(code.lstrip()):
        width = max(0, width - len(INDENT))
    return " " * width
