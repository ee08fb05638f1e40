"""Issue 14's Python features and the learner's classes: gradrepl prints what CPython
prints (CPython is the oracle, in process), and refuses what DECISIONS refuses."""
import re

import pytest
from lang_helpers import headline, python_oracle, run

ADDR = re.compile(r"0x[0-9a-f]+")

CASES = {
    "class_basic": "class P:\n    k = 1\n    def __init__(self, x):\n        self.x = x\n"
                   "    def get(self):\n        return self.x + self.k\np = P(2)\np.get(), P.k, p.k\n"
                   "p.k = 5\np.get(), P.k\nP.k = 7\nP(0).get()\n",
    "class_print": "class P:\n    pass\np = P()\nP\nprint(P, type(p))\nstr(p)[:20]\nrepr(P)\n",
    "class_inherit": "class A:\n    def who(self):\n        return 'A'\n    def hello(self):\n"
                     "        return 'hello from ' + self.who()\nclass B(A):\n    def who(self):\n"
                     "        return 'B'\nB().hello(), A().hello(), isinstance(B(), A), "
                     "isinstance(A(), B)\n",
    "class_super_chain": "class A:\n    def __init__(self):\n        self.log = ['A']\nclass B(A):\n"
                         "    def __init__(self):\n        super().__init__()\n"
                         "        self.log.append('B')\nclass C(B):\n    def __init__(self):\n"
                         "        super(C, self).__init__()\n        self.log.append('C')\nC().log\n",
    "class_static_class": "class M:\n    n = 3\n    @staticmethod\n    def twice(v):\n"
                          "        return 2 * v\n    @classmethod\n    def make(cls):\n"
                          "        return cls()\n    @classmethod\n    def count(cls):\n"
                          "        return cls.n\nM.twice(4), M().twice(5), type(M.make()) is M, "
                          "M.count(), M().count()\n",
    "class_lambda_attr": "class A:\n    f = lambda self, v: v * 2\n    g = 10\nA().f(3), A.g\n",
    "class_object_base": "class A(object):\n    def __init__(self):\n        super().__init__()\n"
                         "        self.v = 1\nA().v\n",
    "class_defaults_from_body": "class A:\n    N = 4\n    def f(self, n=N):\n        return n\n"
                                "A().f(), A().f(1)\n",
    "class_method_value": "class A:\n    def f(self):\n        return 1\na = A()\nm = a.f\nm()\n"
                          "A.f(a)\nm == a.f\n",
    "class_attr_error": "class A:\n    pass\nA().x\n",
    "class_init_error": "class A:\n    def __init__(self, a, b):\n        pass\nA(1)\n",
    "class_init_return": "class A:\n    def __init__(self):\n        return 5\nA()\n",
    "class_no_args": "class A:\n    pass\nA(1, 2)\n",
    "class_compare": "class A:\n    pass\na, b = A(), A()\na == a, a == b, a != b\na < b\n",
    "class_in_function": "def make():\n    class Inner:\n        def v(self):\n            return 3\n"
                         "    return Inner()\nmake().v()\n",
    "class_uses_global": "scale = 3\nclass A:\n    def f(self, v):\n        return v * scale\n"
                         "A().f(2)\nscale = 4\nA().f(2)\n",
    "class_dunder_init_call": "class A:\n    def __init__(self, v):\n        self.v = v\n"
                              "class B(A):\n    def __init__(self):\n        A.__init__(self, 9)\nB().v\n",
    "getattr_family": "class A:\n    pass\na = A()\nsetattr(a, 'x', 1)\ngetattr(a, 'x'), hasattr(a, 'x'), "
                      "hasattr(a, 'y'), getattr(a, 'y', 2)\ndelattr(a, 'x')\nhasattr(a, 'x')\n"
                      "getattr(a, 'y')\n",
    "getattr_type_error": "getattr(1, 2)\n",
    "map_filter": "list(map(abs, [-1, 2])), list(map(pow, [2, 3], [2, 2])), "
                  "list(filter(lambda v: v > 1, [1, 2, 3]))\nlist(map(len, ['ab', 'c']))\n",
    "iter_next": "it = iter('ab')\nnext(it), next(it), next(it, None)\nnext(it)\n",
    "next_list": "next([1])\n",
    "stop_iteration_caught": "it = iter([])\ntry:\n    next(it)\nexcept StopIteration:\n"
                             "    print('empty')\n",
    "generator_lazy": "log = []\ndef g():\n    log.append('start')\n    yield 1\n"
                      "    log.append('mid')\n    yield 2\nx = g()\nlog\nnext(x)\nlog\nlist(x), log\n"
                      "list(x)\n",
    "generator_return": "def g():\n    yield 1\n    return\n    yield 2\nlist(g())\n",
    "generator_nested_loops": "def pairs(n):\n    for i in range(n):\n        for j in range(i):\n"
                              "            if j == 2:\n                break\n            yield (i, j)\n"
                              "        else:\n            continue\n        yield 'broke'\n"
                              "list(pairs(5))\n",
    "generator_while_try": "def g():\n    i = 0\n    while i < 5:\n        i += 1\n        try:\n"
                           "            if i == 3:\n                raise ValueError(i)\n"
                           "            yield i\n        except ValueError as e:\n"
                           "            yield ('caught', e.args)\n        finally:\n"
                           "            pass\nlist(g())\n",
    "generator_exception_inside": "def g():\n    yield 1\n    1 / 0\nlist(g())\n",
    "generator_yield_assign": "def g():\n    x = yield 1\n    yield x\nlist(g())\n",
    "genexp_lazy": "g = (i * i for i in range(4))\nnext(g)\nlist(g)\nlist(g)\n"
                   "sum(x for x in range(10) if x % 3)\n",
    "genexp_first_iter_eager": "g = (i for i in 5)\n",
    "genexp_scope": "x = 10\ng = (x + i for i in range(3))\nx = 20\nlist(g)\n",
    "genexp_in_function": "def f(n):\n    return list(v * n for v in range(3))\nf(2)\n",
    "walrus": "if (n := 3) > 2:\n    print(n)\n[y := 5, y ** 2]\n"
              "vals = [z for v in range(6) if (z := v * v) % 2]\nvals, z\n"
              "def f():\n    [w := i for i in range(3)]\n    return w\nf()\n",
    "walrus_while": "xs = [1, 2, 3]\nwhile (v := xs.pop()) > 1:\n    print(v)\nv\n",
    "nonlocal": "def outer():\n    x = 1\n    def inner():\n        nonlocal x\n        x += 1\n"
                "        return x\n    inner()\n    inner()\n    return x\nouter()\n"
                "def o2():\n    a = 0\n    def m():\n        def i():\n            nonlocal a\n"
                "            a = 5\n        i()\n    m()\n    return a\no2()\n",
    "nonlocal_loop_target": "def f():\n    i = None\n    def g():\n        nonlocal i\n"
                            "        for i in range(3):\n            pass\n    g()\n    return i\nf()\n",
    "str_format": "'{} {}'.format(1, 2), '{1}{0}'.format('a', 'b'), '{n:>4}'.format(n=7)\n"
                  "'{:.3f} {:e} {:%}'.format(1 / 3, 12345.678, 0.25)\n'{!r:>6}'.format('x')\n"
                  "'{0}{0}'.format('ab'), '{{}}'.format(), '{:,}'.format(10 ** 6)\n",
    "str_format_index_error": "'{} {}'.format(1)\n",
    "str_format_key_error": "'{a}'.format(b=1)\n",
    "str_format_switch": "'{} {0}'.format(1)\n",
    "qualnames": "def outer():\n    def inner(a):\n        return a\n    class K:\n"
                 "        def m(self):\n            def deep():\n                pass\n"
                 "            return deep\n    return inner, K, K().m(), lambda: 0\n"
                 "i, K, d, l = outer()\ni\nK\nd\nl\nK()\nK.m\ni()\n",
    "class_property": "class R:\n    def __init__(self, w):\n        self.w = w\n    @property\n"
                      "    def area(self):\n        return self.w ** 2\nr = R(3)\nr.area\nr.w = 4\n"
                      "r.area, hasattr(r, 'area')\nr.area = 1\n",
    "super_in_classmethod": "class A:\n    @classmethod\n    def make(cls):\n        return [cls]\n"
                            "    def f(self):\n        return 1\nclass B(A):\n    @classmethod\n"
                            "    def make(cls):\n        return super().make() + ['B']\n"
                            "B.make()\nsuper(B, B).make()\nsuper(B, B).f\n",
    "id_fn": "a = [1]\nid(a) == id(a), id(a) == id([1])\n",
    "bin_hex_oct_hash": "bin(5), hex(255), oct(8), bin(-3), hex(2 ** 70), hash('a') == hash('a'), "
                        "hash((1, 2)) == hash((1, 2)), hash(3)\nhash([1])\n",
    "too_many_args_with_defaults": "def f(a, b=1):\n    return a\ndef g(a, b=1, *, c=2):\n    return a\n"
                                   "try:\n    g(1, 2, 3)\nexcept TypeError as e:\n    print(e)\nf(1, 2, 3)\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_cpython(name):
    src = CASES[name]
    want_out, want_err = python_oracle(src)
    out, r = run(src)
    assert ADDR.sub("0x", out) == ADDR.sub("0x", want_out)
    assert headline(r) == want_err


@pytest.mark.parametrize("src, message", [
    ("class A:\n    def __call__(self):\n        pass\n",
     "SyntaxError: defining the special method 'call' in a class (__init__ is the only one a "
     "gradrepl class may define) is not supported in gradrepl"),
    ("class A:\n    def __len__(self):\n        return 1\n",
     "SyntaxError: defining the special method 'len' in a class (__init__ is the only one a "
     "gradrepl class may define) is not supported in gradrepl"),
    ("class A:\n    def _helper(self):\n        pass\n",
     "NameError: name '_helper' is not defined (names starting with '_' are not available in "
     "gradrepl)"),
    ("class A:\n    for i in range(3):\n        pass\n",
     "SyntaxError: For in a class body (a class holds methods and attributes) is not supported "
     "in gradrepl"),
    ("class A:\n    x.y = 1\n",
     "SyntaxError: a class attribute that is not a plain name is not supported in gradrepl"),
    ("property\n", "NameError: name 'property' is not defined"),
    ("class A(5):\n    pass\n",
     "SyntaxError: a class with base 5 is not supported in gradrepl (a base is one of your own "
     "classes, nn.Module, a Dataset, an exception class or torch.autograd.Function)"),
    ("class A:\n    gradrepl_public = 1\n", "NameError: the name 'gradrepl_public' is reserved in "
                                            "gradrepl"),
    ("super()\n", "RuntimeError: super(): no arguments"),
    ("def f():\n    return super().x\nf()\n", "RuntimeError: super(): no arguments"),
    ("class A:\n    @staticmethod\n    def f():\n        return super()\nA.f()\n",
     "RuntimeError: super(): no arguments"),
    ("super(int, 1)\n", "TypeError: super() argument 1 must be a class"),
    ("class A:\n    pass\nclass B:\n    pass\nsuper(A, B())\n",
     "TypeError: super(type, obj): obj must be an instance or subtype of type"),
    ("class A:\n    pass\nA.__init__\n", "AttributeError: attribute '__init__' is not available "
                                        "in gradrepl (names starting with '_' are refused)"),
    ("(lambda: 0).__init__()\n", "AttributeError: attribute '__init__' is not available in "
                                 "gradrepl (names starting with '_' are refused)"),
    ("class A:\n    pass\nA | None\n",
     "TypeError: unsupported operand type(s) for |: 'type' and 'NoneType'"),
    ("getattr(1, '__class__')\n", "AttributeError: attribute '…' is not available in "
                                  "gradrepl (names starting with '_' are refused)"),
    ("setattr(torch, 'ones', 1)\n", "AttributeError: cannot assign to 'torch.ones': modules are "
                                    "read-only in gradrepl"),
    ("iter(len, 1)\n", "TypeError: iter(callable, sentinel) takes a function you defined in "
                       "gradrepl"),
    ("'{0.real}'.format(1)\n", "ValueError: '{0.real}': attribute and index lookups inside "
                               "str.format fields are not supported in gradrepl (pass the value "
                               "itself)"),
    ("'{:{}}'.format(1, 5000)\n", "ValueError: format width or precision 5000 is over "
                                  "gradrepl's limit of 1000"),
    ("nonlocal x\n", "SyntaxError: nonlocal declaration not allowed at module level"),
    ("def f():\n    nonlocal q\n", "SyntaxError: no binding for nonlocal 'q' found"),
    ("def f(a):\n    nonlocal a\n", "SyntaxError: name 'a' is parameter and nonlocal"),
    ("def f():\n    print((yield 1))\n",
     "SyntaxError: 'yield' inside an expression (gradrepl runs `yield value`, `x = yield value` "
     "and `yield from iterable` as statements) is not supported in gradrepl"),
    ("def g():\n    yield 1\ng().send(None)\n",
     "AttributeError: 'generator' object has no attribute 'send'"),
])
def test_refusals_say_what(src, message):
    _, r = run(src)
    assert headline(r) == message


def test_generator_suspends_inside_with():
    out, r = run("def g():\n    with torch.no_grad():\n        yield torch.is_grad_enabled()\n"
                 "    yield torch.is_grad_enabled()\nprint(list(g()))\n")
    assert r.ok and out == "[False, True]\n"     # as PyTorch 2.13 prints it


def test_generators_count_resumes_against_the_step_budget():
    src = "def forever():\n    while True:\n        yield 1\ng = forever()\n" \
          "for _ in range(10 ** 9):\n    next(g)\n"
    _, r = run(src, max_steps=10_000)
    assert headline(r).startswith("BudgetExceeded: step budget exhausted")


def test_generator_recursion_hits_the_depth_budget():
    src = "def rec():\n    yield from rec()\nlist(rec())\n"
    _, r = run(src, max_depth=50)
    assert headline(r).startswith("BudgetExceeded: call depth limit exceeded")


def test_infinite_generator_into_list_hits_the_item_cap():
    src = "def forever():\n    while True:\n        yield 1\nlist(forever())\n"
    _, r = run(src, max_items=1000)
    assert headline(r).startswith("BudgetExceeded: sequence too long")


def test_generator_resumed_in_a_later_statement_keeps_its_state():
    out, r = run("def g():\n    yield 1\n    yield 2\nx = g()\nprint(next(x))\nprint(next(x))\n")
    assert r.ok and out == "1\n2\n"


def test_user_instances_hide_their_host_class():
    src = ("class P:\n    def m(self):\n        return 1\np = P()\n"
           "print(type(type(p)), type(p.m), type(super(P, p)), type(P.m))\n")
    out, r = run(src)
    assert r.ok, r.errors
    assert out == ("<class 'builtins.type'> <class 'method'> <class 'super'> "
                   "<class 'function'>\n")


def test_class_reads_only_what_the_learner_defined():
    src = "class P:\n    k = 1\nP.mro\n"
    _, r = run(src)
    assert headline(r) == "AttributeError: type object 'P' has no attribute 'mro'"
    _, r = run("class P:\n    pass\nsuper(P, P()).mro\n")
    assert headline(r) == "AttributeError: 'super' object has no attribute 'mro'"


def test_user_method_as_a_tensor_hook():
    src = ("class Logger:\n    def __init__(self):\n        self.seen = []\n"
           "    def hook(self, g):\n        self.seen.append(g.tolist())\n"
           "log = Logger()\nx = torch.ones(2, requires_grad=True)\nh = x.register_hook(log.hook)\n"
           "(x * 3).sum().backward()\nprint(log.seen)\n")
    out, r = run(src)
    assert r.ok, r.errors
    assert out == "[[3.0, 3.0]]\n"


def test_random_draws_cpythons_numbers():
    import random
    random.seed(7)
    want = [random.random(), random.randint(0, 99), random.gauss(0, 1)]
    xs = list(range(20))
    random.shuffle(xs)
    out, r = run("import random\nrandom.seed(7)\n"
                 "print(repr([random.random(), random.randint(0, 99), random.gauss(0, 1)]))\n"
                 "xs = list(range(20))\nrandom.shuffle(xs)\nprint(xs)\n")
    assert r.ok, r.errors
    assert out == f"{want!r}\n{xs}\n"


def test_random_Random_instances_draw_cpythons_numbers_on_their_own():
    import random
    g = random.Random(42)
    xs = list(range(10))
    g.shuffle(xs)
    want = [xs, g.choices([1, 2, 3], k=4), g.sample(range(100), 3), g.gauss(0, 1), g.getrandbits(40)]
    out, r = run("import random\ng = random.Random(42)\nrandom.seed(0)\nxs = list(range(10))\ng.shuffle(xs)\n"
                 "print(repr([xs, g.choices([1, 2, 3], k=4), g.sample(range(100), 3), g.gauss(0, 1), "
                 "g.getrandbits(40)]))\nprint(isinstance(g, random.Random), type(g), random.Random)\n"
                 "s = g.getstate()\na = g.random()\ng.setstate(s)\nprint(a == g.random())\n")
    assert r.ok, r.errors
    assert out == f"{want!r}\nTrue <class 'random.Random'> <class 'random.Random'>\nTrue\n"
    out, r = run("import random\ng = random.Random(1)\ng.generator\n")
    assert not r.ok and "'Random' object has no attribute 'generator'" in str(r.errors)
    out, r = run("import random\nrandom.Random(1).sample(range(10 ** 9), 10 ** 8)\n")
    assert not r.ok and "BudgetExceeded" in str(r.errors)


def test_each_session_has_its_own_random_state():
    from gradrepl.lang import Session, run_source
    a, b = [], []
    s1, s2 = Session(write=a.append), Session(write=b.append)
    run_source("import random\nrandom.seed(1)\n", s1)
    run_source("import random\nrandom.seed(1)\nrandom.random()\n", s2)
    run_source("print(random.random())\n", s1)
    assert a == b
