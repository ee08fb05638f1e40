"""Adadelta, Adamax, NAdam, RAdam, ASGD, Rprop and LBFGS beyond their golden runs
(tests/data/nn_cases/optim_more.*, optim_lbfgs.*): argument checks, state that survives
state_dict / load_state_dict, and LBFGS's one-group rule."""
import pytest

from gradrepl import optim
from gradrepl.engine import api

torch = api.TORCH


def _quadratic_run(make, steps, opt=None, w=None):
    if w is None:
        torch["manual_seed"](0)
        w = torch["randn"](6, requires_grad=True)
    opt = opt or make([w])
    for _ in range(steps):
        opt.zero_grad()
        loss = ((w - 1.5) ** 2).sum() + (w ** 4).mean()
        loss.backward()
        opt.step()
    return w, opt


@pytest.mark.parametrize("make", [
    lambda p: optim.Adadelta(p, lr=0.5), lambda p: optim.Adamax(p), lambda p: optim.NAdam(p, lr=0.01),
    lambda p: optim.RAdam(p, lr=0.01), lambda p: optim.ASGD(p, t0=3), lambda p: optim.Rprop(p),
])
def test_state_dict_resumes_the_same_trajectory(make):
    straight, _ = _quadratic_run(make, 12)
    w, first = _quadratic_run(make, 7)
    saved = first.state_dict()
    second = make([w])
    second.load_state_dict(saved)
    resumed, _ = _quadratic_run(make, 5, second, w)
    assert resumed.tolist() == straight.tolist()


@pytest.mark.parametrize("call,message", [
    (lambda p: optim.Rprop(p, etas=(1.5, 1.2)), "Invalid eta values: 1.5, 1.2"),
    (lambda p: optim.Adadelta(p, rho=1.5), "Invalid rho value: 1.5"),
    (lambda p: optim.NAdam(p, momentum_decay=-1), "Invalid momentum_decay value: -1"),
    (lambda p: optim.RAdam(p, betas=(0.9, 1.0)), "Invalid beta parameter at index 1: 1.0"),
    (lambda p: optim.ASGD(p, lr=-1), "Invalid learning rate: -1"),
    (lambda p: optim.LBFGS([{"params": p}, {"params": [torch["zeros"](1, requires_grad=True)]}]),
     "LBFGS doesn't support per-parameter options (parameter groups)"),
])
def test_argument_checks(call, message):
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        call([torch["zeros"](2, requires_grad=True)])


def test_lbfgs_line_search_names_and_defaults():
    w = torch["zeros"](3, requires_grad=True)
    opt = optim.LBFGS([w], line_search_fn="backtracking")

    def closure():
        opt.zero_grad()
        loss = ((w - 2) ** 2).sum()
        loss.backward()
        return loss
    with pytest.raises(RuntimeError, match="^only 'strong_wolfe' is supported$"):
        opt.step(closure)
    assert opt.defaults["max_eval"] == 25 and opt.defaults["history_size"] == 100
    opt = optim.LBFGS([w], line_search_fn="strong_wolfe")
    opt.step(closure)
    assert [round(v, 6) for v in w.tolist()] == [2.0, 2.0, 2.0]
    assert w.grad_fn is None and w.requires_grad
