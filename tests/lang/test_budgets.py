"""Budgets: checked before the work, named with their flag, never catchable by user code."""
import time

import pytest
from lang_helpers import headline, run


def budget_error(result):
    err = result.errors[0]
    assert err.kind == "budget" and err.type_name == "BudgetExceeded", err
    return err.message


@pytest.mark.parametrize("src, flag", [
    ("while True:\n    pass\n", "--max-steps"),
    ("for i in range(10 ** 12):\n    pass\n", "--max-steps"),
    ("[i for i in range(10 ** 12)]\n", "--max-steps"),
    ("def f(n):\n    return f(n + 1)\nf(0)\n", "--max-depth"),
    ("x = 10 ** 10 ** 10\n", "--max-int-bits"),
    ("x = pow(9, 10 ** 8)\n", "--max-int-bits"),
    ("n = 10\nn **= 10 ** 9\n", "--max-int-bits"),
    ("m = 1 << 10 ** 10\n", "--max-int-bits"),
    ("k = 1\nk <<= 10 ** 9\n", "--max-int-bits"),
    ("x = (10 ** 60000) * (10 ** 60000)\n", "--max-int-bits"),
    ("s = 'a' * 10 ** 10\n", "--max-items"),
    ("u = 10 ** 10 * 'a'\n", "--max-items"),
    ("b = b'a' * 10 ** 10\n", "--max-items"),
    ("l = [0] * 10 ** 10\n", "--max-items"),
    ("t = (0,) * 10 ** 10\n", "--max-items"),
    ("w = [0]\nw *= 10 ** 10\n", "--max-items"),
    ("v = 'a'\nv *= 10 ** 10\n", "--max-items"),
    ("s = 'ab'\nfor i in range(40):\n    s = s + s\n", "--max-items"),
    ("l = [1]\nfor i in range(40):\n    l += l\n", "--max-items"),
    ("l = [1]\nl += range(10 ** 10)\n", "--max-items"),
    ("l = []\nl.extend(range(10 ** 10))\n", "--max-items"),
    ("c = 'x'.center(10 ** 10)\n", "--max-items"),
    ("z = 'x'.zfill(10 ** 10)\n", "--max-items"),
    ("e = '\\t'.expandtabs(10 ** 10)\n", "--max-items"),
    ("a = 'a' * 100000\nb = a.replace('a', a)\n", "--max-items"),
    ("g = '-'.join(['a' * 1000] * 100000)\n", "--max-items"),
    ("list(range(10 ** 10))\n", "--max-items"),
    ("sum(range(10 ** 15))\n", "--max-items"),
    ("sorted(range(10 ** 9))\n", "--max-items"),
    ("set(range(10 ** 9))\n", "--max-items"),
    ("[*range(10 ** 9)]\n", "--max-items"),
    ("import math\nmath.factorial(10 ** 9)\n", "--max-int-bits"),
    ("import math\nmath.comb(10 ** 9, 5 * 10 ** 8)\n", "--max-int-bits"),
    ("import math\nmath.prod(range(1, 10 ** 7))\n", "--max-int-bits"),
    ("while True:\n    print('A' * 1000)\n", "--max-output"),
    ("a = [0] * 10 ** 6\nprint([a] * 10)\n", "--max-output"),
    ("x = " + "[" * 120 + "1" + "]" * 120 + "\n", "--max-ast-depth"),
])
def test_budget_fires_with_its_flag(src, flag):
    # CPU time, not wall time: the budget fires before the work is done however loaded the
    # machine is (the time limit is only a backstop that must not fire first under load)
    start = time.process_time()
    _, r = run(src, max_steps=200_000, time_limit=60)
    assert flag in budget_error(r)
    assert time.process_time() - start < 5


def test_time_limit():
    _, r = run("x = 0\nwhile True:\n    x += 1\n", time_limit=0.3, max_steps=10 ** 12)
    assert "--time-limit" in budget_error(r)


def test_format_width_is_capped():
    for src in ["f'{1:>10000000000}'\n", "format(1, '10000000000')\n", "'%10000000000d' % 1\n",
                "'%*d' % (10000000000, 1)\n", "f\"{'a':^{10 ** 10}}\"\n"]:
        _, r = run(src)
        assert headline(r).startswith("ValueError: format width or precision"), src


def test_source_size_per_statement():
    src = "x = [" + "1, " * 40_000 + "]\nprint('next')\n"
    out, r = run(src, keep_going=True)
    assert "--max-source" in budget_error(r)
    assert out == "next\n"


def test_budgets_are_not_catchable():
    src = ("try:\n    while True:\n        pass\nexcept Exception:\n    print('caught')\n"
           "finally:\n    print('finally')\n")
    out, r = run(src, max_steps=10_000)
    assert out == "" and "--max-steps" in budget_error(r)
    out, r = run("try:\n    x = 10 ** 10 ** 10\nexcept:\n    print('caught')\n")
    assert out == "" and "--max-int-bits" in budget_error(r)


def test_budget_resets_per_statement():
    src = "for i in range(800):\n    pass\nfor i in range(800):\n    pass\nprint('ok')\n"
    out, r = run(src, max_steps=1000)
    assert out == "ok\n" and r.ok


def test_session_survives_a_budget_error():
    out, r = run("x = 41\nwhile True:\n    pass\nprint(x + 1)\n", keep_going=True, max_steps=1000)
    assert out == "42\n"


def test_budget_inside_hook_leaves_engine_usable():
    src = """\
    import torch
    x = torch.tensor(2.0, requires_grad=True)
    def slow(g):
        while True:
            pass
    h = x.register_hook(slow)
    (x * x).backward()
    h.remove()
    with torch.no_grad():
        y = x * 2
    print(y.requires_grad, torch.is_grad_enabled())
    (x * x).backward()
    print(x.grad)
    """
    out, r = run(src, keep_going=True, max_steps=5000)
    assert "--max-steps" in budget_error(r)
    assert out == "False True\ntensor(4.)\n"


def test_watchdog_stops_a_long_host_call(monkeypatch):
    from gradrepl.lang import Session, run_source
    from gradrepl.lang.session import _Watchdog
    monkeypatch.setattr(_Watchdog, "ALARM_GRACE", 0.05)
    out = []
    s = Session(write=out.append)
    run_source("x = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(120000):\n"
               "    y = y * 1.0\n", s)
    s.limits.time_limit = 0.05
    start = time.process_time()       # CPU time: wall time on a loaded machine says nothing
    r = run_source("y.backward()\n", s)    # about 0.4 s of engine code, no interpreter steps
    assert time.process_time() - start < 2
    assert "--time-limit" in budget_error(r)
    s.limits.time_limit = 10
    r = run_source("z = torch.tensor(3.0, requires_grad=True)\n(z * z).backward()\nprint(z.grad)\n", s)
    assert r.ok and out[-1] == "tensor(6.)\n"


def test_lists_of_tensors_are_measured_before_printing():
    out, r = run("t = torch.ones(1000)\nprint([t] * 10 ** 5)\nprint([torch.ones(2)] * 2)\n",
                 keep_going=True)
    assert "--max-output" in budget_error(r)
    assert out == "[tensor([1., 1.]), tensor([1., 1.])]\n"


def test_huge_exception_messages_are_measured_first():
    src = ("a = [0] * 10 ** 6\ntry:\n    raise ValueError([a] * 10 ** 7)\nexcept ValueError as e:\n"
           "    print(e)\nassert False, [a] * 10 ** 7\n")
    out, r = run(src, keep_going=True)
    assert out == ""
    assert "--max-output" in budget_error(r)
    assert r.errors[1].headline == "AssertionError: (the message is too long to show)"
