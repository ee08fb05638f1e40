"""run_source and Session: the API the REPL, lessons and script mode share."""
import textwrap

import pytest

from gradrepl.lang import Session, run_source
from gradrepl.limits import Limits
from lang_helpers import headline, run


def session():
    out = []
    s = Session(write=out.append)
    return s, out


def test_typed_expression_shorthand_and_echo():
    out, r = run("x = tensor([0.0, 1.0], requires_grad=True)\ny = x**2 * exp(x)\ny\n")
    assert r.ok and out == "tensor([0.0000, 2.7183], grad_fn=<MulBackward0>)\n"


def test_names_bound_by_each_statement_and_succeeded_sources():
    s, _ = session()
    src = "a = 1\nb, c = 2, 3\nfor i in range(2):\n    d = i\ndef f():\n    pass\nimport torch as t\n1/0\n"
    r = run_source(src, s, keep_going=True)
    assert [st.assigned for st in r.statements] == [("a",), ("b", "c"), ("i", "d"), ("f",), ("t",), ()]
    assert s.succeeded == ["a = 1", "b, c = 2, 3", "for i in range(2):\n    d = i",
                           "def f():\n    pass", "import torch as t"]
    assert [st.line for st in r.statements] == [1, 2, 3, 5, 7, 8]


def test_decorated_def_source_starts_at_the_decorator():
    s, _ = session()
    run_source("@torch.no_grad()\ndef f(v):\n    return v\n", s)
    assert s.succeeded == ["@torch.no_grad()\ndef f(v):\n    return v"]


def test_namespace_persists_across_runs_and_reset_forgets():
    s, out = session()
    run_source("x = 41\n", s)
    run_source("print(x + 1)\n", s)
    assert out == ["42\n"]
    ns = s.namespace
    s.reset()
    assert s.namespace is ns and "x" not in ns and "torch" in ns and s.succeeded == []
    r = run_source("x\n", s)
    assert headline(r) == "NameError: name 'x' is not defined"


def test_display_and_report_callbacks():
    s, out = session()
    shown, reported, after = [], [], []
    s.display = shown.append
    s.report = reported.append
    s.after_statement = after.append
    r = run_source("1 + 1\nNone\nprint('p')\n[][0]\n", s, keep_going=True)
    assert shown == [2] and out == ["p\n"]
    assert reported == r.errors and reported[0].headline == "IndexError: list index out of range"
    assert len(after) == 4 and after[3].error is reported[0]


def test_echo_none_shows_nothing():
    out, r = run("1 + 1\nprint(3)\n", echo="none")
    assert out == "3\n"


def test_grads_changed_tracking():
    s, _ = session()
    s.track_grads = True
    run_source("x = torch.ones(2, requires_grad=True)\nw = torch.ones(2, requires_grad=True)\n", s)
    r = run_source("(x * 3).sum().backward()\n(x * w).sum().backward()\nprint(1)\n", s)
    assert [st.grads_changed for st in r.statements] == [("x",), ("x", "w"), ()]


def test_warnings_reach_the_sink():
    s, _ = session()
    seen = []
    s.warn = lambda category, message: seen.append(category)
    run_source("x = torch.ones(2, requires_grad=True)\ny = x * 2\ny.grad\n", s)
    assert seen == ["UserWarning"]


def test_ctrl_c_stops_the_statement_and_keeps_the_session():
    calls = []

    def write(text):
        calls.append(text)
        if len(calls) == 3:
            raise KeyboardInterrupt
    s = Session(write=write)
    r = run_source("x = 5\nfor i in range(10):\n    print(i)\nprint('later')\n", s, keep_going=True)
    assert r.interrupted and r.errors[0].kind == "interrupt"
    assert r.errors[0].headline == "KeyboardInterrupt: interrupted by Ctrl-C"
    assert len(r.statements) == 2 and s.namespace["x"] == 5


def test_custom_autograd_function():
    src = """\
    class Exp(torch.autograd.Function):
        '''e to the x'''
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            ctx.scale = 2.0
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * result * ctx.scale / 2

        def helper(v):
            return v + 1
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = Exp.apply(x)
    y.sum().backward()
    print(x.grad, y.grad_fn.name(), Exp.helper(1))
    Exp
    """
    out, r = run(src)
    assert r.ok, r.errors
    assert out == "tensor([1.0000, 2.7183]) ExpBackward 2\n<class '__main__.Exp'>\n"


def test_other_classes_refused_at_run_time():
    out, r = run("Base = torch.Tensor\nclass A(Base):\n    @staticmethod\n    def forward(c):\n"
                 "        pass\n    @staticmethod\n    def backward(c):\n        pass\n")
    assert headline(r) == ("SyntaxError: a class with base <class 'torch.Tensor'> is not "
                           "supported in gradrepl (a base is one of your own classes, nn.Module, "
                           "a Dataset, an exception class or torch.autograd.Function)")


def test_hooks_run_user_functions_and_count_steps():
    src = """\
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    def hook(g):
        seen.append(g.tolist())
        return g * 10
    h = x.register_hook(hook)
    (x * x).sum().backward()
    print(seen, x.grad)
    """
    out, r = run(src)
    assert out == "[[2.0, 4.0]] tensor([20., 40.])\n"


def test_grad_mode_contexts_and_decorators():
    src = """\
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        a = x * 2
    with torch.enable_grad():
        b = x * 2
    with torch.set_grad_enabled(False):
        c = x * 2
    @torch.no_grad()
    def double(v):
        return v * 2
    print(a.requires_grad, b.requires_grad, c.requires_grad, double(x).requires_grad)
    try:
        with torch.no_grad():
            raise ValueError('inside')
    except ValueError:
        pass
    print(torch.is_grad_enabled())
    """
    out, r = run(src)
    assert r.ok, r.errors
    assert out == "False True False False\nTrue\n"


def test_documents_tensor_idioms():
    src = """\
    x = torch.tensor([[2, 3]], dtype=torch.float, requires_grad=True)
    j = torch.zeros(2, 2)
    y = torch.zeros(1, 2)
    y[0, 0] = x[0][0] ** 2 + 3 * x[0][1]
    y[0, 1] = x[0][1] ** 2 + 2 * x[0][0]
    y.backward(torch.Tensor([[1, 0]]), retain_graph=True)
    j[0] = x.grad
    x.grad = torch.zeros_like(x.grad)
    y.backward(torch.Tensor([[0, 1]]))
    j[1] = x.grad
    j
    x[..., None].shape, x[:, ::-1] if False else x[0, :1]
    isinstance(x, torch.Tensor), isinstance(3, torch.Tensor)
    """
    out, r = run(src)
    assert r.ok, r.errors
    assert out == ("tensor([[4., 3.],\n        [2., 6.]])\n"
                   "(torch.Size([1, 2, 1]), tensor([2.], grad_fn=<SliceBackward0>))\n(True, False)\n")


def test_limits_are_applied_to_the_engine():
    from gradrepl import limits
    s = Session(limits=Limits(max_elements=100), write=lambda t: None)
    r = run_source("torch.ones(1000)\n", s)
    assert r.errors[0].kind == "budget" and "--max-elements" in r.errors[0].message
    assert limits.LIMITS.max_elements == 100
    run_source("1\n", Session(write=lambda t: None))
    assert limits.LIMITS.max_elements == Limits().max_elements


def test_source_is_dedented_by_nobody():
    out, r = run(textwrap.dedent("""\
        if True:
            print('indented body')
        """))
    assert out == "indented body\n"


def test_ctrl_c_between_statements_is_a_value_too():
    s, out = session()

    def after(stmt):
        raise KeyboardInterrupt
    s.after_statement = after
    r = run_source("x = 1\nprint('never')\n", s)
    assert r.interrupted and not r.ok and out == []
    assert r.errors[-1].headline == "KeyboardInterrupt: interrupted by Ctrl-C"


def test_user_functions_called_later_by_gradrepl_get_a_fresh_budget():
    from gradrepl import limits
    s, out = session()
    s.limits = Limits(time_limit=0.2, max_steps=1000)
    run_source("x = torch.ones(2, requires_grad=True)\nseen = []\n"
               "def hook(g):\n    seen.append(1)\n    return g\n"
               "h = x.register_hook(hook)\ny = (x * 2).sum()\nwhile True:\n    pass\n", s,
               keep_going=True)
    import time
    time.sleep(0.3)      # the last statement's deadline is long gone
    assert limits.LIMITS.max_steps == 1000
    s.namespace["y"].backward()          # as :explain does: the engine calls the hook
    assert s.namespace["seen"] == [1]
    run_source("def spin(g):\n    while True:\n        pass\nh2 = x.register_hook(spin)\n", s)
    import pytest
    from gradrepl.errors import BudgetExceeded
    with pytest.raises(BudgetExceeded):
        (s.namespace["x"] * 3).sum().backward()


@pytest.mark.parametrize("src, changed", [
    ("y[0, 0] = 5", ("y",)),
    ("c = y.detach_()", ("y",)),
    ("y.data.fill_(1)", ("y",)),
    ("for i in range(2):\n    w.add_(1)", ("w",)),
    ("torch.nn.init.zeros_(w)", ("w",)),
    ("x.grad.zero_()", ()),                       # the .grad table shows that one
    ("def f(t):\n    t.zero_()", ()),             # defining does not run the body
    ("torch.manual_seed(0)", ()),
])
def test_names_changed_in_place(src, changed):
    import ast

    from gradrepl.lang.session import _changed_in_place
    assert _changed_in_place(ast.parse(src).body[0]) == changed
