"""Carets under the failing sub-expression, as Python 3.11 draws them.

The interpreter knows which statement failed (its line and column); which part of it
failed is read from the statement's syntax tree and the error itself: the name of a
NameError, the attribute of an AttributeError, the division of a ZeroDivisionError,
the subscript of an IndexError/KeyError, the one call (or the call of the function a
TypeError names), the one operator of a shape mismatch. When the statement leaves
more than one candidate, no caret is drawn rather than a wrong one; as in Python, none
is drawn either when the part is the whole line.

    `caret_line(source_line, col, end_col, marks)` and `locate(...)` are the pieces;
    `carets(statement_node, line, type_name, message, source_line)` -> "   ~~^~~" or None.
"""
import ast
import re

_DIVISIONS = (ast.Div, ast.FloorDiv, ast.Mod)
_NAMED = [
    (("NameError", "UnboundLocalError"), r"(?:name|local variable) '([^']+)'", ast.Name, "id"),
    (("AttributeError",), r"has no attribute '([^']+)'", ast.Attribute, "attr"),
]
# errors of an operator (a + b, a @ b), not of a call
_OPERATOR_WORDS = ("unsupported operand", "The size of tensor", "inconsistent tensor size",
                   "shapes cannot be multiplied", "can't multiply sequence", "Expected all tensors",
                   "can only concatenate", "must be on the same", "can't be cast to the desired output")
_CALLED = r"^([A-Za-z_][\w.]*)\(\) "   # patterns: compiled on first use (re's cache)


def _header_expressions(stmt):
    """The expressions a statement evaluates itself (not those of the statements it contains)."""
    out = []
    for name, value in ast.iter_fields(stmt):
        if name in ("body", "orelse", "finalbody", "handlers", "decorator_list"):
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.AST) and not isinstance(item, ast.stmt):
                out.append(item)
    return out


def _walk(roots):
    stack = list(reversed(roots))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def find_statement(tree, line, col):
    """The statement of `tree` starting at (line, col)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line and node.col_offset == col:
            return node
    return None


def locate(stmt, type_name, message):
    """The sub-expression of stmt that the error is about, or None when it is not clear."""
    nodes = [n for n in _walk(_header_expressions(stmt)) if isinstance(n, ast.expr)]
    for types, pattern, kind, field in _NAMED:
        if type_name in types:
            m = re.search(pattern, message)
            found = [n for n in nodes if isinstance(n, kind) and m and getattr(n, field) == m.group(1)]
            return found[0] if found else None
    if type_name == "ZeroDivisionError":
        found = [n for n in nodes if isinstance(n, ast.BinOp) and isinstance(n.op, _DIVISIONS)]
        return found[0] if len(found) == 1 else None
    if type_name in ("IndexError", "KeyError"):
        found = [n for n in nodes if isinstance(n, ast.Subscript)]
        return found[0] if len(found) == 1 else None
    if any(words in message for words in _OPERATOR_WORDS):
        ops = [n for n in nodes if isinstance(n, ast.BinOp)]
        return ops[0] if len(ops) == 1 else None
    if "is not subscriptable" in message:
        found = [n for n in nodes if isinstance(n, ast.Subscript)]
        return found[0] if len(found) == 1 else None
    calls = [n for n in nodes if isinstance(n, ast.Call)]
    m = re.match(_CALLED, message)
    if m:
        wanted = m.group(1).rsplit(".", 1)[-1]
        named = [c for c in calls if _callee(c) == wanted]
        if len(named) == 1:
            return named[0]
    if len(calls) == 1:
        return calls[0]
    return None


def _callee(call):
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _chars(line_bytes, col):
    return len(line_bytes[:col].decode(errors="replace"))


def marks_for(node, source_line):
    """(start, end, marks) in characters of source_line, or None for a multi-line node."""
    if node.lineno != node.end_lineno:
        return None
    raw = source_line.encode()
    start, end = _chars(raw, node.col_offset), _chars(raw, node.end_col_offset)
    if isinstance(node, ast.BinOp) and node.left.end_lineno == node.lineno == node.right.lineno:
        left_end, right_start = _chars(raw, node.left.end_col_offset), _chars(raw, node.right.col_offset)
        between = source_line[left_end:right_start]
        op_at = left_end + len(between) - len(between.lstrip(" ()"))
        op_len = len(between.strip(" ()")) or 1
        marks = "".join("^" if op_at <= i < op_at + op_len else "~" for i in range(start, end))
        return start, end, marks
    if isinstance(node, ast.Subscript) and node.value.end_lineno == node.lineno:
        value_end = _chars(raw, node.value.end_col_offset)
        return start, end, "~" * (value_end - start) + "^" * (end - value_end)
    return start, end, "^" * (end - start)


def carets(stmt, type_name, message, source_line):
    """The caret line (without the 4-space indent of the source line), or None."""
    if stmt is None or source_line is None:
        return None
    node = locate(stmt, type_name, message)
    if node is None or node.lineno != stmt.lineno:
        return None
    found = marks_for(node, source_line)
    if found is None:
        return None
    start, end, marks = found
    stripped = source_line.strip()
    indent = len(source_line) - len(source_line.lstrip())
    if start <= indent and end >= indent + len(stripped):
        return None                          # the whole line: Python draws nothing either
    return " " * (start - indent) + marks
