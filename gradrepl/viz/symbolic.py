"""A short symbolic form of the chain rule's result, where the rules allow one.

For straight-line elementwise code such as 004's

    y = x + 2; z = y * y * 3; out = z.mean()

`summarize` rebuilds `out` from the top-level assignments of the source as an
expression of the leaves (`mean(3 (x_i + 2)^2)`), differentiates it by the textbook
rules and simplifies (`d out / d x_i = 3/2 (x_i + 2)`). It gives up (returns no lines)
on anything else: loops or reassignments, non-elementwise ops, broadcasting between
shapes, an explicit backward gradient. The derivative is evaluated numerically and shown
only if it equals the engine's gradient, so a summary is never wrong about the numbers.
"""
import ast
import math
from fractions import Fraction

import numpy as np

from gradrepl.messages import msg

FUNCS = ("exp", "log", "sin", "cos", "tanh", "sigmoid", "sqrt")
_BINARY_CALLS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**"}


class GiveUp(Exception):
    pass


# expressions: ("c", Fraction) ("s", name) ("+", [terms]) ("*", [factors]) ("^", base, Fraction)
# ("f", name, arg)
ZERO, ONE = ("c", Fraction(0)), ("c", Fraction(1))


def _const(value):
    return ("c", Fraction(value))


# ----------------------------------------------------------------- source -> expression
def _assignments(tree):
    """name -> (statement index, value) for names bound once by a plain top-level assignment."""
    defs, unreliable = {}, set()
    for index, stmt in enumerate(tree.body):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            if name in defs:
                unreliable.add(name)
            defs[name] = (index, stmt.value)
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                unreliable.add(node.id)
    return defs, unreliable


class _Builder:
    def __init__(self, defs, unreliable, symbols):
        self.defs, self.unreliable, self.symbols = defs, unreliable, symbols
        self.used = set()
        self.depth = 0

    def name(self, name, before):
        if name in self.unreliable:
            raise GiveUp
        if name in self.symbols:
            self.used.add(name)
            return ("s", name)
        entry = self.defs.get(name)
        if entry is None or entry[0] >= before:
            raise GiveUp
        self.depth += 1
        if self.depth > 200:
            raise GiveUp
        expr = self.convert(entry[1], entry[0])
        self.depth -= 1
        if expr[0] == "reduce":
            raise GiveUp
        return expr

    def convert(self, node, before):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return _const(Fraction(str(node.value)) if isinstance(node.value, float) else node.value)
        if isinstance(node, ast.Name):
            return self.name(node.id, before)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = self.convert(node.operand, before)
            return ("*", [_const(-1), inner]) if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp):
            ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
            op = ops.get(type(node.op))
            if op is None:
                raise GiveUp
            return _binary(op, self.convert(node.left, before), self.convert(node.right, before))
        if isinstance(node, ast.Call) and not node.keywords:
            func = node.func
            if isinstance(func, ast.Attribute):
                base = func.value
                is_module = isinstance(base, ast.Name) and base.id == "torch"
                args = node.args if is_module else [base] + node.args
                fname = func.attr
            elif isinstance(func, ast.Name):
                args, fname = node.args, func.id
            else:
                raise GiveUp
            if fname in ("mean", "sum") and len(args) == 1:
                return ("reduce", fname, self.convert(args[0], before))
            if fname in FUNCS and len(args) == 1:
                arg = self.convert(args[0], before)
                return ("^", arg, Fraction(1, 2)) if fname == "sqrt" else ("f", fname, arg)
            if fname in _BINARY_CALLS and len(args) == 2:
                return _binary(_BINARY_CALLS[fname], self.convert(args[0], before), self.convert(args[1], before))
        raise GiveUp


def _binary(op, a, b):
    if a[0] == "reduce" or b[0] == "reduce":
        raise GiveUp
    if op == "+":
        return ("+", [a, b])
    if op == "-":
        return ("+", [a, ("*", [_const(-1), b])])
    if op == "*":
        return ("*", [a, b])
    if op == "/":
        return ("*", [a, ("^", b, Fraction(-1))])
    if b[0] != "c":
        raise GiveUp
    return ("^", a, b[1])


# ----------------------------------------------------------------- calculus
def diff(e, x):
    kind = e[0]
    if kind == "c":
        return ZERO
    if kind == "s":
        return ONE if e[1] == x else ZERO
    if kind == "+":
        return ("+", [diff(t, x) for t in e[1]])
    if kind == "*":
        fs = e[1]
        return ("+", [("*", fs[:k] + [diff(f, x)] + fs[k + 1:]) for k, f in enumerate(fs)])
    if kind == "^":
        base, n = e[1], e[2]
        return ("*", [_const(n), ("^", base, n - 1), diff(base, x)])
    name, arg = e[1], e[2]
    inner = diff(arg, x)
    if name == "exp":
        return ("*", [e, inner])
    if name == "log":
        return ("*", [("^", arg, Fraction(-1)), inner])
    if name == "sin":
        return ("*", [("f", "cos", arg), inner])
    if name == "cos":
        return ("*", [_const(-1), ("f", "sin", arg), inner])
    if name == "tanh":
        return ("*", [("+", [ONE, ("*", [_const(-1), ("^", e, Fraction(2))])]), inner])
    # sigmoid
    return ("*", [e, ("+", [ONE, ("*", [_const(-1), e])]), inner])


def _split(term):
    """coefficient, rest of a simplified term."""
    if term[0] == "c":
        return term[1], None
    if term[0] == "*" and term[1][0][0] == "c":
        rest = term[1][1:]
        return term[1][0][1], rest[0] if len(rest) == 1 else ("*", rest)
    return Fraction(1), term


def _key(e):
    return repr(e)


def _pull_content(total):
    """g, total / g with g the common rational factor of the terms' coefficients."""
    coeffs = [_split(t)[0] for t in total[1]]
    num = 0
    den = 1
    for c in coeffs:
        num = math.gcd(num, c.numerator)
        den = den * c.denominator // math.gcd(den, c.denominator)
    g = Fraction(num, den)
    if coeffs and coeffs[0] < 0:
        g = -g
    if g in (0, 1):
        return Fraction(1), total
    return g, simplify(("+", [("*", [("c", 1 / g), t]) for t in total[1]]))


def simplify(e):
    kind = e[0]
    if kind in ("c", "s"):
        return e
    if kind == "f":
        return ("f", e[1], simplify(e[2]))
    if kind == "^":
        base, n = simplify(e[1]), e[2]
        if n == 0:
            return ONE
        if n == 1:
            return base
        if base[0] == "c":
            if base[1] == 0 and n < 0:
                raise GiveUp
            if n.denominator == 1:
                return ("c", base[1] ** int(n))
        if base[0] == "^":
            return simplify(("^", base[1], base[2] * n))
        return ("^", base, n)
    if kind == "+":
        coeffs, rests = {}, {}
        const = Fraction(0)
        stack = [simplify(t) for t in e[1]]
        while stack:
            t = stack.pop(0)
            if t[0] == "+":
                stack[:0] = t[1]
                continue
            c, rest = _split(t)
            if rest is None:
                const += c
                continue
            k = _key(rest)
            coeffs[k] = coeffs.get(k, 0) + c
            rests[k] = rest
        terms = []
        for k, c in coeffs.items():
            if c != 0:
                terms.append(rests[k] if c == 1 else ("*", [("c", c)] + (rests[k][1] if rests[k][0] == "*"
                                                                         else [rests[k]])))
        if const != 0:
            terms.append(("c", const))
        if not terms:
            return ZERO
        return terms[0] if len(terms) == 1 else ("+", terms)
    # product
    coef = Fraction(1)
    powers, bases = {}, {}
    stack = [simplify(f) for f in e[1]]
    while stack:
        f = stack.pop(0)
        if f[0] == "*":
            stack[:0] = f[1]
            continue
        if f[0] == "c":
            coef *= f[1]
            continue
        base, n = (f[1], f[2]) if f[0] == "^" else (f, Fraction(1))
        k = _key(base)
        powers[k] = powers.get(k, 0) + n
        bases[k] = base
    if coef == 0:
        return ZERO
    factors = []
    for k, n in powers.items():
        base = bases[k]
        if n != 0 and base[0] == "+":   # 3/4 (2 x + 4) -> 3/2 (x + 2)
            g, base = _pull_content(base)
            coef *= g ** n if n.denominator == 1 else 1
            if n.denominator != 1:
                base = bases[k]
        factors.append(simplify(("^", base, n)) if n != 0 else ONE)
    factors = [f for f in factors if f != ONE]
    if not factors:
        return ("c", coef)
    if coef == 1 and len(factors) == 1:
        return factors[0]
    return ("*", ([("c", coef)] if coef != 1 else []) + factors)


def evaluate(e, values):
    kind = e[0]
    if kind == "c":
        return float(e[1])
    if kind == "s":
        return values[e[1]]
    if kind == "+":
        return sum((evaluate(t, values) for t in e[1]), 0.0)
    if kind == "*":
        out = 1.0
        for f in e[1]:
            out = out * evaluate(f, values)
        return out
    if kind == "^":
        return np.power(evaluate(e[1], values), float(e[2]))
    arg = evaluate(e[2], values)
    if e[1] == "sigmoid":
        return 1 / (1 + np.exp(-arg))
    return getattr(np, e[1])(arg)


# ----------------------------------------------------------------- printing
def _frac(c):
    return str(c.numerator) if c.denominator == 1 else f"{c.numerator}/{c.denominator}"


def show(e, indexed, top=True):
    kind = e[0]
    if kind == "c":
        return _frac(e[1])
    if kind == "s":
        return f"{e[1]}_i" if e[1] in indexed else e[1]
    if kind == "f":
        return f"{e[1]}({show(e[2], indexed)})"
    if kind == "^":
        if e[2] < 0:
            return show(("*", [e]), indexed, top)
        base = show(e[1], indexed, False)
        if e[1][0] == "*" or (e[1][0] == "c" and e[1][1] < 0):
            base = f"({base})"
        if e[2] == Fraction(1, 2):
            return f"sqrt({show(e[1], indexed)})"
        return f"{base}^{_frac(e[2])}" if e[2] >= 0 else f"{base}^({_frac(e[2])})"
    if kind == "+":
        out = ""
        for k, t in enumerate(e[1]):
            c, rest = _split(t)
            text = show(t, indexed, False)
            if k and c < 0:
                text = show(simplify(("*", [_const(-1), t])), indexed, False)
                out += " - " + text
            else:
                out += (" + " if k else "") + text
        return out if top else f"({out})"
    c, rest = _split(e)
    factors = rest[1] if rest[0] == "*" else [rest]
    num = [f for f in factors if not (f[0] == "^" and f[2] < 0)]
    den = [("^", f[1], -f[2]) for f in factors if f[0] == "^" and f[2] < 0]

    def product(fs, coefficient):
        text = "·".join(show(f, indexed, False) for f in fs)
        if coefficient == 1:
            return text or "1"
        if coefficient == -1:
            return "-" + (text or "1")
        return _frac(coefficient) + (" " + text if text else "")

    numerator = product(num, c.numerator if den else c)
    if not den:
        return numerator
    denominator = product([simplify(d) for d in den], c.denominator)
    if len(den) > 1 or c.denominator != 1:
        denominator = f"({denominator})"
    return f"{numerator} / {denominator}"


# ----------------------------------------------------------------- the summary
def summarize(source, root_name, tensor, leaf_grads, values, implicit=True):
    """Lines like `d out / d x_i = 3/2 (x_i + 2)`, or [] when no safe summary exists.

    values: name -> NumPy array of the session's tensors (leaves and constants).
    """
    if not implicit:
        return []
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    defs, unreliable = _assignments(tree)
    if root_name not in defs or root_name in unreliable:
        return []
    leaves = {}
    for title, leaf, g in leaf_grads:
        if g is None or " = " in title or title not in values:
            return []
        leaves[title] = (leaf, g)
    symbols = {name for name in values if name not in defs or name in leaves}
    symbols |= set(leaves)
    builder = _Builder(defs, unreliable, symbols)
    try:
        expr = builder.convert(defs[root_name][1], defs[root_name][0])
        shapes = {np.shape(values[n]) for n in builder.used if np.size(values[n]) != 1}
        if len(shapes) > 1 or not set(leaves) <= builder.used:
            return []
        shape = shapes.pop() if shapes else ()
        indexed = {n for n in builder.used if np.shape(values[n]) == shape and shape != ()}
        count = int(np.prod(shape)) if shape else 1
        if expr[0] == "reduce":
            _, how, inner = expr
            scale = Fraction(1, count) if how == "mean" else ONE[1]
            forward = f"{root_name} = {how}({show(simplify(inner), indexed)})" + (
                f"  = 1/{count} Σ_i {show(simplify(inner), indexed)}" if how == "mean" and count > 1 else "")
        else:
            if tensor.numel() != 1 and tuple(tensor.shape) != shape:
                return []
            inner, scale = expr, Fraction(1)
            forward = f"{root_name}{'_i' if indexed else ''} = {show(simplify(inner), indexed)}"
        lines = [forward]
        for name, (leaf, g) in leaves.items():
            if name not in indexed and np.size(values[name]) != 1:
                return []
            if np.size(values[name]) == 1 and indexed:
                return []     # a scalar leaf against many elements: a sum, not one formula per element
            d = simplify(("*", [("c", scale), diff(inner, name)]))
            with np.errstate(all="ignore"):
                numbers = evaluate(d, {n: np.asarray(values[n], np.float64) for n in builder.used})
            numbers = np.broadcast_to(np.asarray(numbers, np.float64), np.shape(g))
            if not np.allclose(numbers, np.asarray(g, np.float64), rtol=1e-4, atol=1e-6):
                return []
            sub = "_i" if name in indexed else ""
            top = f"{root_name}{'_i' if expr[0] != 'reduce' and indexed else ''}"
            line = f"d {top} / d {name}{sub} = {show(d, indexed)}"
            at = _uniform_point(sorted(_symbols(d)), values, indexed)
            if d[0] != "c" and at and numbers.size and np.all(numbers == numbers.flat[0]):
                line = msg("viznote.at", "en", line=line, value=_number(numbers.flat[0]), at=at)
            lines.append(line)
        return lines
    except (GiveUp, RecursionError, ArithmeticError, KeyError, ValueError, TypeError):
        return []     # no summary rather than a doubtful one


def _symbols(e):
    if e[0] == "s":
        return {e[1]}
    if e[0] == "c":
        return set()
    if e[0] in ("+", "*"):
        return set().union(*(_symbols(t) for t in e[1]))
    return _symbols(e[1] if e[0] == "^" else e[2])


def _uniform_point(names, values, indexed):
    """`a = 2, b = 3` when every element of each symbol has one value, else ""."""
    parts = []
    for name in names:
        flat = np.asarray(values[name]).ravel()
        if not flat.size or not np.all(flat == flat[0]):
            return ""
        parts.append(f"{name}{'_i' if name in indexed else ''} = {_number(flat[0])}")
    return ", ".join(parts)


def _number(v):
    v = float(v)
    return str(int(v)) if v == int(v) and abs(v) < 1e15 else f"{v:.6g}"
