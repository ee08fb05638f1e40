"""Differential property test: random plain-Python programs print exactly what CPython prints."""
from hypothesis import given, settings
from hypothesis import strategies as st
from lang_helpers import headline, python_oracle, run

LEAVES = st.one_of(st.integers(-20, 20).map(str), st.sampled_from(
    ["0.5", "-2.25", "True", "None", "'ab'", "[1, 2]", "(3,)", "{'k': 1}", "a", "b", "s", "l"]))
BINARY = st.sampled_from(["+", "-", "*", "/", "//", "%", "<", "<=", "==", "!=", "and", "or", "in",
                          "is", "&", "|", "^"])


def expressions():
    return st.recursive(LEAVES, lambda inner: st.one_of(
        st.tuples(inner, BINARY, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.sampled_from(["2", "3", "-1", "0"])).map(lambda t: f"({t[0]} ** {t[1]})"),
        inner.map(lambda e: f"(not {e})"),
        inner.map(lambda e: f"(-{e})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(st.sampled_from(["len", "abs", "str", "bool", "repr", "sorted", "list", "max",
                                   "min", "sum", "type", "int", "float", "round"]), inner)
        .map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(inner, st.sampled_from(["[1:]", "[::-1]", "[-2:]", ".upper()", ".split()",
                                          ".count(1)", ".index(5)", ".get('k')", ".keys()",
                                          ".copy()", ".bit_length()", ".is_integer()",
                                          ".strip('a')", ".replace('a', 'bb')"]))
        .map(lambda t: f"({t[0]}){t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"[{t[0]}, *{t[1]}]"),
        st.tuples(inner, inner).map(lambda t: f"{{**{t[0]}, 'z': {t[1]}}}"),
        inner.map(lambda e: f"[v for v in {e}]"),
        LEAVES.map(lambda e: f'f"{{ {e} !r}}|{{ {e} }}|{{ {e} !s:>6}}"'),
    ), max_leaves=5)


PRELUDE = "a = 7\nb = -3\ns = 'xyz'\nl = [4, 5, 6]\n"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(expressions(), min_size=1, max_size=4))
def test_expressions_print_as_in_cpython(exprs):
    src = PRELUDE + "".join(f"{e}\n" for e in exprs)
    want_out, want_err = python_oracle(src)
    got_out, result = run(src)
    assert got_out == want_out
    assert headline(result) == want_err


STATEMENTS = st.one_of(
    expressions().map(lambda e: f"a = {e}"),
    expressions().map(lambda e: f"l = l + [{e}]"),
    expressions().map(lambda e: f"b += {e}"),
    st.tuples(expressions(), expressions()).map(
        lambda t: f"for v in {t[0]}:\n    s = {t[1]}\n    print(v, s)"),
    st.tuples(expressions(), expressions()).map(
        lambda t: f"try:\n    print({t[0]})\nexcept (TypeError, ZeroDivisionError) as e:\n"
                  f"    print('caught', type(e), e)\nelse:\n    print({t[1]})"),
    expressions().map(lambda e: f"def g(v={e}):\n    return v, {e}\nprint(g())"),
)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(STATEMENTS, min_size=1, max_size=4))
def test_statements_behave_as_in_cpython(stmts):
    src = PRELUDE + "\n".join(stmts) + "\na, b, s, l\n"
    want_out, want_err = python_oracle(src)
    got_out, result = run(src)
    assert got_out == want_out
    assert headline(result) == want_err
