"""Differential property test for issue 14's Python features: random programs with
generators, walrus, nonlocal, classes, str.format, map/filter print what CPython prints."""
from hypothesis import given, settings
from hypothesis import strategies as st
from lang_helpers import headline, python_oracle, run
from test_differential import PRELUDE, expressions

from gradrepl.lang.errors import redact

E = expressions()

FEATURES = st.one_of(
    st.tuples(E, E).map(lambda t: f"def gen():\n    for v in {t[0]}:\n        yield v\n"
                                  f"        yield ({t[1]})\nprint(list(gen()))"),
    st.tuples(E, E).map(lambda t: f"print(list(({t[0]}, v) for v in {t[1]}))"),
    st.tuples(E, E).map(lambda t: f"g = (v for v in {t[0]})\nprint(next(g, {t[1]}), list(g))"),
    st.tuples(E, E).map(lambda t: f"def gen():\n    yield from {t[0]}\n    return {t[1]}\n"
                                  f"print([*gen()])"),
    E.map(lambda e: f"if (w := {e}):\n    print('yes', w)\nprint(w)"),
    st.tuples(E, E).map(lambda t: f"print([w := v for v in {t[0]}], {t[1]})"),
    st.tuples(E, E).map(lambda t: f"class C:\n    k = {t[0]}\n    def m(self, v={t[1]}):\n"
                                  f"        self.seen = v\n        return self.k, v\n"
                                  f"c = C()\nprint(c.m(), C.k, c.seen)"),
    st.tuples(E, E).map(lambda t: f"class B:\n    def __init__(self, v):\n        self.v = v\n"
                                  f"class D(B):\n    def __init__(self):\n"
                                  f"        super().__init__({t[0]})\n        self.w = {t[1]}\n"
                                  f"d = D()\nprint(d.v, d.w, isinstance(d, B), getattr(d, 'v'))"),
    st.tuples(E, E).map(lambda t: f"print('{{}} {{!r}} {{x}}'.format({t[0]}, {t[1]}, x={t[1]}))"),
    E.map(lambda e: f"print(list(map(str, {e})), list(filter(None, {e})))"),
    st.tuples(E, E).map(lambda t: f"def o():\n    x = {t[0]}\n    def i():\n        nonlocal x\n"
                                  f"        x = [x, {t[1]}]\n    i()\n    return x\nprint(o())"),
)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(FEATURES, min_size=1, max_size=3))
def test_features_print_as_in_cpython(stmts):
    src = PRELUDE + "".join(f"{s}\n" for s in stmts)
    want_out, want_err = python_oracle(src)
    got_out, result = run(src)
    assert got_out == want_out
    # reports never name dunders (type NoneType doesn't define __round__ method -> ...)
    assert headline(result) == (redact(want_err) if want_err else want_err)
