"""Random and mutated sources never escape run_source, never hang, never hit an internal error."""
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradrepl.lang import Session, run_source
from gradrepl.limits import Limits

DATA = Path(__file__).resolve().parent.parent / "data"
CORPUS = sorted(p.read_text() for p in (DATA / "conformance").glob("*.py")) + [
    "def f(a, *b, c=1, **d):\n    return [x for x in b if x] or {k: v for k, v in d.items()}\n"
    "f(1, 2, c=3, e=4)\n",
    "try:\n    x = [1][2]\nexcept (IndexError, KeyError) as e:\n    print(f'{e!r:>20}')\nfinally:\n"
    "    pass\n",
    "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
    "        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n",
    "with torch.no_grad():\n    y = torch.ones(2) ** 2 @ torch.ones(2)\nwhile y < 10:\n    y += 1\n",
    "class P:\n    k = 1\n    def __init__(self, x):\n        self.x = x\n    @property\n"
    "    def d(self):\n        return self.x * 2\n    @staticmethod\n    def s(v):\n"
    "        return v\nclass Q(P):\n    def __init__(self):\n        super().__init__(3)\n"
    "q = Q()\nprint(q.d, q.s(1), isinstance(q, P), getattr(q, 'x'))\n",
    "def g(n):\n    for i in range(n):\n        x = yield i\n    yield from [n]\n"
    "print(list(g(3)), sum(v for v in g(2)), next(g(1)))\n",
    "def o():\n    c = 0\n    def i():\n        nonlocal c\n        c += 1\n    i()\n    return c\n"
    "if (w := o()) > 0:\n    print('{} {w}'.format(w, w=w))\n",
    "import torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n"
    "        super().__init__()\n        self.fc = nn.Linear(2, 1)\n    def forward(self, x):\n"
    "        return self.fc(x)\nprint(Net()(torch.ones(2)).shape)\n",
]
TOKENS = ["x", "y", "torch", ".", "ones", "(", ")", "[", "]", "{", "}", ",", ":", "=", "+", "*",
          "**", "@", "-", "/", "1", "2.", "'s'", "f'{x}'", "\n", "    ", "for", "in", "range",
          "if", "else", "while", "def", "return", "lambda", "try", "except", "raise", "with",
          "no_grad", "backward", "grad", "requires_grad", "True", "None", "print", "import",
          "class", "yield", "_", "__class__", "not", "and", "*args", "**kw", "del", "%", "<<",
          "10", "is", "sum", "len", "'a'", "...", ";", "#", "\\", "async", "global",
          "super", "nonlocal", ":=", "self", "@staticmethod", "@property", "__init__",
          "yield from", "nn.Module", "'{}'.format"]

# run_source raises the recursion limit once; do it before hypothesis records the limit.
run_source("", Session(write=lambda text: None))

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def run_safely(src):
    out = []
    session = Session(limits=Limits(max_steps=20_000, time_limit=1.0, max_items=100_000,
                                    max_elements=100_000, max_output=10_000),
                      write=out.append)
    start = time.process_time()     # CPU time: the budgets bound the work, not the load
    result = run_source(src, session, keep_going=True)
    assert time.process_time() - start < 15
    assert not [e for e in result.errors if e.kind == "internal"], result.errors
    for e in result.errors:
        assert "Traceback" not in e.format()
    return result


@SETTINGS
@given(st.text(max_size=200))
def test_random_text(src):
    run_safely(src)


@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join))
def test_token_soup(src):
    run_safely(src)


@st.composite
def mutated(draw):
    src = draw(st.sampled_from(CORPUS))
    for _ in range(draw(st.integers(1, 4))):
        if not src:
            break
        i = draw(st.integers(0, len(src) - 1))
        j = draw(st.integers(i, min(len(src), i + 8)))
        action = draw(st.sampled_from(["delete", "insert", "duplicate"]))
        if action == "delete":
            src = src[:i] + src[j:]
        elif action == "insert":
            src = src[:i] + draw(st.sampled_from(TOKENS)) + src[i:]
        else:
            src = src[:j] + src[i:j] + src[j:]
    return src


@SETTINGS
@given(mutated())
def test_mutated_programs(src):
    run_safely(src)


ATOMS = st.sampled_from(["x", "y", "1", "2.5", "-3", "'ab'", "[1, 2]", "(1,)", "{'k': 1}", "None",
                         "True", "torch.ones(2)", "torch.tensor([1., 2.], requires_grad=True)",
                         "x.grad", "range(3)", "math.pi", "f", "lambda v: v"])
OPS = st.sampled_from(["+", "-", "*", "/", "//", "%", "**", "@", "<", "==", "and", "or", "in", "<<"])


def _expressions():
    return st.recursive(
        ATOMS,
        lambda inner: st.one_of(
            st.tuples(inner, OPS, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(["len", "sum", "print", "exp", "abs", "str", "list", "f",
                                       "max", "sorted", "type", "isinstance"]),
                      st.lists(inner, max_size=2)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(inner, st.sampled_from(["sum()", "backward()", "grad", "shape", "item()",
                                              "requires_grad", "upper()", "append(1)"]))
            .map(lambda t: f"{t[0]}.{t[1]}"),
            inner.map(lambda e: f"[v * 2 for v in {e}]"),
            inner.map(lambda e: f"f'{{{e}!r:>5}}'"),
        ),
        max_leaves=6)


def _statements():
    expr = _expressions()
    simple = st.one_of(
        expr.map(lambda e: f"x = {e}"), expr.map(lambda e: f"y = {e}"), expr,
        expr.map(lambda e: f"x += {e}"), expr.map(lambda e: f"del x\nx = {e}"),
    )
    return st.one_of(
        simple,
        st.tuples(expr, simple).map(lambda t: f"for i in {t[0]}:\n    {t[1]}"),
        st.tuples(expr, simple).map(lambda t: f"if {t[0]}:\n    {t[1]}\nelse:\n    pass"),
        st.tuples(simple, simple).map(lambda t: f"try:\n    {t[0]}\nexcept Exception as e:\n"
                                                f"    {t[1]}"),
        st.tuples(expr).map(lambda t: f"def f(v=1):\n    return {t[0]}"),
        st.tuples(simple).map(lambda t: f"with torch.no_grad():\n    {t[0]}"),
    )


@SETTINGS
@given(st.lists(_statements(), min_size=1, max_size=8).map(lambda ss: "\n".join(ss) + "\n"))
def test_generated_programs(src):
    run_safely("x = 1\ny = torch.ones(2, requires_grad=True)\nf = abs\n" + src)
