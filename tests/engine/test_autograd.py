"""Engine semantics the golden cases do not pin down: depth, order, memory, hooks."""
import gc
import weakref

import numpy as np
import pytest

from gradrepl.engine import api
from gradrepl.engine.autograd import run_backward
from gradrepl.engine.functions import no_grad, ones, tensor, zeros
from gradrepl.engine.backward import backward, grad


def test_backward_through_100k_nodes_needs_no_recursion():
    x = tensor(1.0, requires_grad=True)
    y = x
    for _ in range(100_000):
        y = y * 1.0
    y.backward()
    assert x.grad.item() == 1.0


def test_backward_order_is_pytorchs_most_recent_node_first():
    seen = []
    x = tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = x * 3
    a.register_hook(lambda g: seen.append("a"))
    b.register_hook(lambda g: seen.append("b"))
    x.register_hook(lambda g: seen.append("x"))
    (a + b).sum().backward()
    # b was created after a, so its node runs first; the leaf hook fires once, at the end
    assert seen == ["b", "a", "x"]


def test_saved_values_are_released_after_backward():
    x = tensor([1.0, 2.0], requires_grad=True)
    h = x.exp()
    node = h.grad_fn
    h.sum().backward()
    assert node.saved == ()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        run_backward([h.sum()], [ones(())], retain_graph=False, create_graph=False)


def test_retain_graph_keeps_saved_values():
    x = tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp()).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert np.allclose(x.grad.tolist(), 2 * np.exp([1.0, 2.0]))


def test_graph_is_freed_when_unreferenced():
    x = tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).exp().sum()
    ref = weakref.ref(y.grad_fn)
    y.backward()
    del y
    gc.collect()
    assert ref() is None


def test_grad_accumulates_in_place_outside_grad_mode():
    x = tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    g = x.grad
    (x * 3).sum().backward()
    assert g is x.grad and g.tolist() == [5.0, 5.0]


def test_hook_can_replace_the_gradient_and_be_removed():
    x = tensor([1.0, 2.0], requires_grad=True)
    h = x.register_hook(lambda g: g * 10)
    (x * 1).sum().backward()
    assert x.grad.tolist() == [10.0, 10.0]
    h.remove()
    x.grad = None
    (x * 1).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


def test_autograd_grad_does_not_touch_grad_fields():
    x = tensor([1.0, 2.0], requires_grad=True)
    w = tensor([3.0, 4.0], requires_grad=True)
    (gx,) = grad((x * w).sum(), x)
    assert gx.tolist() == [3.0, 4.0]
    assert x.grad is None and w.grad is None


def test_allow_unused_returns_none():
    x = tensor([1.0], requires_grad=True)
    z = tensor([1.0], requires_grad=True)
    gx, gz = grad((x * 2).sum(), [x, z], allow_unused=True)
    assert gz is None and gx.tolist() == [2.0]


def test_modified_saved_tensor_is_detected():
    x = tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y * y
    y.add_(1)
    with pytest.raises(RuntimeError, match="which is output 0 of Add, is at version 1; expected version 0"):
        z.sum().backward()


def test_no_grad_records_nothing_and_restores_mode():
    x = tensor([1.0], requires_grad=True)
    with no_grad():
        y = x * 2
    assert y.grad_fn is None and not y.requires_grad
    assert api.grad_enabled()


def test_setitem_twice_chains_copyslices():
    x = tensor([2.0, 3.0], requires_grad=True)
    y = zeros(2)
    y[0] = x[0] ** 2
    y[1] = x[1] * 3
    assert y.grad_fn.name() == "torch::autograd::CopySlices"
    assert y.grad_fn.next_functions[0][0].name() == "torch::autograd::CopySlices"
    backward([y], [tensor([1.0, 1.0])])
    assert x.grad.tolist() == [4.0, 3.0]


def test_broadcast_budget_is_checked_before_allocating():
    from gradrepl.errors import BudgetExceeded
    a = ones(100_000, 1)
    b = ones(1, 100_000)
    with pytest.raises(BudgetExceeded):
        a * b


def test_torch_names_refused_on_purpose_say_so():
    assert isinstance(api.TORCH["save"], api.Unavailable)
    assert "not available" in str(api.TORCH["save"].error())


def test_kept_saved_values_replay_for_explain_but_backward_still_refuses():
    from gradrepl.engine import autograd as A
    api.keep_saved_for_explain(True)
    try:
        x = tensor([1.0, 2.0], requires_grad=True)
        y = (x.exp() * x).sum()
        y.backward()
        with pytest.raises(RuntimeError, match="second time"):
            y.backward()
        (g,) = run_backward([y], [ones(())], retain_graph=True, create_graph=False, inputs=[x],
                            accumulate=False, replay=True)
        assert np.allclose(g.tolist(), (np.exp([1.0, 2.0]) * (1 + np.array([1.0, 2.0]))))
    finally:
        api.keep_saved_for_explain(False)
    assert A.KEEP_SAVED == [False]


def test_autograd_grad_runs_only_what_leads_to_its_inputs():
    x = tensor([1.0, 2.0], requires_grad=True)
    fired = []
    x.register_hook(lambda g: fired.append(g))
    y = x.exp()
    (gy,) = grad((y * 2).sum(), y)
    assert gy.tolist() == [2.0, 2.0]
    assert fired == []          # the path below y was not run
    y.sum().backward()          # so exp's saved values were not freed
    assert np.allclose(x.grad.tolist(), np.exp([1.0, 2.0]))


def test_a_rule_that_returns_too_few_gradients_is_an_internal_error():
    from gradrepl.engine.autograd import Node, edge_of
    from gradrepl.engine.ops.registry import Rule

    broken = Rule("BrokenBackward0", ("self", "other"), ("grad", "grad"), (), (), lambda grad, xp: (grad,),
                  False, False, "BrokenBackward0 (test)")
    a = tensor([1.0, 2.0], requires_grad=True)
    b = tensor([3.0, 4.0], requires_grad=True)
    out = (a * 1.0).detach()
    out._fn = Node(broken, (edge_of(a), edge_of(b)))
    with pytest.raises(RuntimeError, match="BrokenBackward0 returned 1 gradients for 2 inputs"):
        out.sum().backward()
