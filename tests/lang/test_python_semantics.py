"""Plain-Python programs: gradrepl prints exactly what CPython prints (CPython is the oracle)."""
import pytest
from lang_helpers import headline, python_oracle, run

CASES = {
    "arithmetic": "1 + 2 * 3\n7 // 2, 7 % 3, -7 // 2, 2 ** 10, 2 ** -1, 7 / 2\n1e-3, 2., 0x1f, 1_000\n",
    "int_ops": "(5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 10, 1024 >> 3)\n",
    "compare_chain": "1 < 2 < 3, 3 > 2 > 2, 1 == 1.0 != 2, None is None, 'a' in 'abc', 3 not in [1]\n",
    "boolops": "0 or 'x', 1 and 0, not [], None or [] or 5\nx = 3\n'big' if x > 2 else 'small'\n",
    "assign_forms": "a = b = 2\nc, d = 1, 2\n(e, f), g = (3, 4), 5\nh, *i = [1, 2, 3]\n*j, k = 'xyz'\n"
                    "a, b, c, d, e, f, g, h, i, j, k\n",
    "augassign": "n = 5\nn += 2\nn -= 1\nn *= 3\nn //= 4\nn **= 2\nn %= 7\nn <<= 3\nn\n"
                 "s = 'ab'\ns *= 2\ns += 'c'\ns\nl = [1]\nl += [2]\nl *= 2\nl\n",
    "subscripts": "l = list(range(10))\nl[2], l[-1], l[2:5], l[::3], l[::-2]\nl[1:3] = ['a']\nl\n"
                  "d = {'k': 1}\nd['z'] = 2\nd\ndel d['k']\nd\nt = (1, 2, 3)\nt[1:]\n",
    "if_elif": "for v in (-1, 0, 1):\n    if v < 0:\n        print('neg')\n    elif v == 0:\n"
               "        print('zero')\n    else:\n        print('pos')\n",
    "for_else_break": "for i in range(5):\n    if i == 3:\n        break\nelse:\n    print('no')\n"
                      "print(i)\nfor i in range(2):\n    pass\nelse:\n    print('done', i)\n",
    "while_continue": "i = 0\ntotal = 0\nwhile i < 10:\n    i += 1\n    if i % 2:\n        continue\n"
                      "    total += i\nelse:\n    print('else ran')\ntotal\n",
    "functions": "def f(a, b=2, *args, c=5, **kw):\n    return (a, b, args, c, kw)\n"
                 "f(1)\nf(1, 3, 4, 5, c=6, z=7)\nf(*[1, 2, 3], **{'q': 1})\n",
    "closures": "def make(n):\n    def add(x):\n        return x + n\n    return add\nadd3 = make(3)\n"
                "add3(4)\n[make(i)(1) for i in range(3)]\n",
    "late_binding": "fs = [lambda: i for i in range(3)]\n[f() for f in fs]\n",
    "recursion": "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\nfact(20)\n",
    "lambda_sorted": "sorted(['bb', 'a', 'ccc'], key=lambda s: -len(s))\n"
                     "max([3, 1, 2], key=lambda v: -v), min(4, 2, 8), max([], default=0)\n",
    "comprehensions": "[x * x for x in range(6) if x % 2 == 0]\n{x: x ** 2 for x in range(3)}\n"
                      "{c for c in 'hello'}\n[(i, j) for i in range(3) for j in range(i)]\n"
                      "sum(x for x in range(5))\n",
    "builtins": "len('abc'), abs(-2), round(2.675, 2), round(7.5), int('42'), float('1.5'), bool(0)\n"
                "list(enumerate('ab', 1)), list(zip([1, 2], 'xy')), list(reversed([1, 2, 3]))\n"
                "any([0, 1]), all([1, 0]), sum([1, 2], 10), divmod(7, 2), pow(2, 10), pow(3, 4, 5)\n"
                "chr(65), ord('A'), str(3), tuple([1]), set([1, 1]), dict(a=1), dict([(1, 2)])\n"
                "isinstance(1, int), isinstance(True, int), isinstance('a', (int, str)), callable(len)\n",
    "types": "type(1), type('a'), type([]), type(1.5) == float, type({}) is dict\n",
    "strings": "s = 'Hello, World'\ns.lower(), s.upper(), s.split(', '), s.replace('l', 'L'), s.find('W')\n"
               "'-'.join(['a', 'b']), 'x'.center(5, '*'), '7'.zfill(3), ' a '.strip(), s.startswith('He')\n"
               "s[::-1], len(s), s.count('l'), 'a\\tb'.expandtabs(4)\n",
    "fstrings": "x = 3.14159\nname = 'w'\nf'{x:.2f} {name!r} {x:>10.3e} {42:08b} {name:^5}|'\n"
                "f'{1 + 1} {[1, 2]} {x!s:.4}'\nformat(255, 'x'), format(0.5, '%')\n",
    "percent": "'%d items at %.2f %s %r %5s|%-5s|' % (3, 1.5, 'x', 'y', 'a', 'b')\n'%(k)s' % {'k': 1}\n",
    "list_methods": "l = [3, 1, 2]\nl.append(4)\nl.extend([5])\nl.insert(0, 9)\nl.remove(1)\nl.pop()\n"
                    "l.sort()\nl\nl.reverse()\nl\nl.index(3), l.count(2)\nl.copy()\n",
    "dict_methods": "d = {'a': 1}\nd.get('a'), d.get('b', 0), list(d.keys()), list(d.items())\n"
                    "d.setdefault('c', 3)\nd.update({'e': 5})\nd.pop('a')\nd\n",
    "set_ops": "a = {1, 2, 3}\nb = {2, 3, 4}\nsorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b)\n"
               "a.add(7)\nsorted(a.union([9]))\n",
    "try_except": "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    print('caught', e)\nelse:\n"
                  "    print('no')\nfinally:\n    print('finally')\n",
    "try_else_finally_return": "def f():\n    try:\n        return 'body'\n    finally:\n"
                               "        print('cleanup')\nf()\n",
    "except_tuple_reraise": "def g():\n    try:\n        [][1]\n    except (KeyError, IndexError) as e:\n"
                            "        print(type(e), e.args)\n        raise\ntry:\n    g()\nexcept Exception as e:\n"
                            "    print('outer', e)\n",
    "raise_class": "try:\n    raise ValueError\nexcept ValueError as e:\n    print(repr(e))\n",
    "assert": "assert 1 == 1\ntry:\n    assert 1 == 2, 'nope'\nexcept AssertionError as e:\n    print(e)\n",
    "del_name": "x = 1\ndel x\ny = [1, 2, 3]\ndel y[0]\ny\n",
    "echo_rules": "None\n1\nfor i in range(2):\n    i\nprint('p')\n[]\n''\n",
    "nested_data": "m = [[1, 2], [3, 4]]\n[row[::-1] for row in m]\n[[r[i] for r in m] for i in range(2)]\n",
    "slices_objects": "l = list(range(5))\nl[slice(1, 3)] if False else l[1:3]\nl[:]\nl[-2:]\n",
    "unpack_star_call": "def f(*a, **k):\n    return a, k\nf(*range(3), *'ab', x=1, **{'y': 2})\n[*'ab', *[1]]\n"
                        "{**{'a': 1}, 'b': 2}\n",
    "decorator": "def twice(fn):\n    def run(*a):\n        return fn(*a) * 2\n    return run\n@twice\n"
                 "def three():\n    return 3\nthree()\n",
    "default_eval_time": "n = 1\ndef f(x=n):\n    return x\nn = 2\nf()\n",
    "bool_short_circuit": "def t():\n    print('t')\n    return True\nFalse and t()\nTrue or t()\nTrue and t()\n",
    "ann_assign": "x: int = 5\ny: float\nx\n",
    "print_kwargs": "print(1, 2, sep='-', end='!\\n')\nprint()\nprint('a', None, [1], (2,))\n"
                    "print('flushed', flush=True)\n",
    "int_big": "2 ** 200\n10 ** 50 // 7\n",
    "float_special": "float('inf'), -float('inf'), 1e308 * 10, 0.1 + 0.2\n",
    "loop_try_continue": "out = []\nfor v in [1, 0, 2]:\n    try:\n        out.append(10 // v)\n"
                         "    except ZeroDivisionError:\n        continue\n    finally:\n"
                         "        out.append('f')\nout\n",
    "finally_overrides_break": "for i in range(3):\n    try:\n        break\n    finally:\n"
                               "        print('fin', i)\n",
    "nested_defaults_closure": "def outer(k=2):\n    def mid(m=k * 2):\n        return lambda n=m: n + k\n"
                               "    return mid()\nouter()(), outer(5)(1)\n",
    "lambda_kwargs": "f = lambda a, *r, b=1, **k: (a, r, b, sorted(k))\nf(1, 2, b=3, z=4, y=5)\n",
    "subscript_targets_chain": "a = [0, 0]\nd = {}\na[0] = d['k'] = a[1] = 7\na, d\n",
    "del_in_function": "def f():\n    x = 1\n    del x\n    return 'gone'\nf()\n",
    "string_slicing": "s = 'abcdefgh'\ns[-3:], s[::-3], s[5:1:-1], s[100:], s[-100:2]\n",
    "nested_ifexp": "[('neg' if v < 0 else 'zero' if v == 0 else 'pos') for v in (-2, 0, 3)]\n",
    "sorted_reverse_key": "sorted({'b': 2, 'a': 3}.items(), key=lambda kv: kv[1], reverse=True)\n",
    "while_else_no_break": "n = 3\nwhile n:\n    n -= 1\nelse:\n    print('finished', n)\n",
    "unpack_in_for": "for i, (a, b) in enumerate([(1, 2), (3, 4)]):\n    print(i, a + b)\n"
                     "for first, *rest in ['abc', 'de']:\n    print(first, rest)\n",
    "comprehension_scope": "x = 'outer'\n[x for x in range(2)]\nx\n",
    "dict_set_comp_nested": "{(i, j): i * j for i in range(2) for j in range(2) if i <= j}\n",
    "numbers_format": "f'{1234567.891:,.2f} {0.000123:.2e} {42:>+6d} {255:#x} {3:03}'\n",
    "percent_dict_and_literal": "'%(a)s-%(b)05.1f %%' % {'a': 'x', 'b': 2.25}\n",
    "bool_int_arith": "True + True, True * 3, -False, 7 // True\n",
    "is_identity": "a = [1]\nb = a\na is b, a is not [1], a == [1]\n",
    "tuple_compare": "(1, 2) < (1, 3), [1, 2] == [1, 2], 'abc' < 'abd'\n",
    "err_in_handler": "try:\n    1 / 0\nexcept ZeroDivisionError:\n    [][0]\n",
    "err_bare_raise_no_active": "raise\n",
    "err_catch_non_exception": "try:\n    1 / 0\nexcept 5:\n    pass\n",
    "err_star_unpack_int": "[*5]\n",
    "err_multiple_values": "def f(a):\n    pass\nf(1, a=2)\n",
    "err_missing_two": "def f(a, b, c):\n    pass\nf()\n",
    "err_kwonly_missing": "def f(*, k):\n    pass\nf()\n",
    # errors: the headline must be CPython's
    "err_name": "print('before')\nundefined_thing\nprint('after')\n",
    "err_zero": "1 / 0\n",
    "err_index": "[1, 2][5]\n",
    "err_key": "{'a': 1}['b']\n",
    "err_type_add": "1 + 'a'\n",
    "err_unbound": "def f():\n    print(v)\n    v = 1\nf()\n",
    "err_args_missing": "def f(a, b):\n    pass\nf(1)\n",
    "err_args_many": "def f(a):\n    pass\nf(1, 2)\n",
    "err_kwarg": "def f(a):\n    pass\nf(b=1)\n",
    "err_unpack_many": "a, b = [1, 2, 3]\n",
    "err_unpack_few": "a, b, c = [1, 2]\n",
    "err_unpack_nonit": "a, b = 5\n",
    "err_attr_list": "[].nope\n",
    "err_raise_msg": "raise RuntimeError('boom happened')\n",
    "err_value": "int('x')\n",
    "err_assert": "assert False\n",
    "err_max_empty": "max([])\n",
    "err_notcallable": "x = 5\nx()\n",
    "err_format_spec": "f'{1:abc}'\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_cpython(name):
    src = CASES[name]
    want_out, want_err = python_oracle(src)
    got_out, result = run(src)
    assert got_out == want_out
    assert headline(result) == want_err
    assert result.ok == (want_err is None)
