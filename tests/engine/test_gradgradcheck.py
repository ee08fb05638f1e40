"""torch.autograd.gradgradcheck: True for smooth compositions whose second derivatives
autograd records, False (or GradcheckError) when a backward hides its input from the
graph; the random grad_outputs advance the generator as PyTorch's make_tensor does
(golden: tests/data/engine_cases/gradgradcheck)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gradrepl.engine import api
from gradrepl.engine.functions import GradcheckError, gradcheck, gradgradcheck

T = api.TORCH
UNARY = [lambda a: a.sin(), lambda a: a.exp(), lambda a: a ** 3, lambda a: a.tanh(),
         lambda a: (a * a).sum(), lambda a: a.sigmoid() * a]


def _x(values, shape):
    return T["tensor"](np.array(values[:int(np.prod(shape))]).reshape(shape).tolist(),
                       dtype=T["float64"], requires_grad=True)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-1.5, 1.5), min_size=6, max_size=6),
       st.sampled_from([(6,), (2, 3)]), st.integers(0, len(UNARY) - 1), st.integers(0, len(UNARY) - 1))
def test_compositions_pass(values, shape, i, j):
    f, g = UNARY[i], UNARY[j]
    x = _x(values, shape)
    assert gradgradcheck(lambda a: f(g(a) if g(a).dim() else a), x) is True


def test_two_inputs_and_given_grad_outputs():
    x = _x([0.1, -0.4, 0.7, 1.2, -1.0, 0.3], (2, 3))
    w = _x([0.5, -0.2, 0.9], (3,))
    g = T["ones"](2, dtype=T["float64"], requires_grad=True)
    assert gradgradcheck(lambda a, b: (a * b).exp().sum(1), (x, w), (g,)) is True


def test_hidden_input_fails():
    x = _x([0.1, -0.4, 0.7], (3,))

    def square_frozen(a):                      # d/da right, d2/da2 lost: a.detach()
        return (a.detach() * a).sum() + 0 * a.sum()

    assert gradcheck(lambda a: a * a.detach(), x, raise_exception=False) is False
    assert gradgradcheck(square_frozen, x, raise_exception=False) is False
    with pytest.raises(GradcheckError, match="Jacobian mismatch for output 0 with respect to input 0"):
        gradgradcheck(square_frozen, x)


def test_draws_like_make_tensor():
    T["manual_seed"](3)
    x = _x([0.1, -0.4, 0.7], (3,))
    gradgradcheck(lambda a: a.sin(), x)
    after = T["rand"](2).tolist()
    T["manual_seed"](3)
    T["empty"](3, dtype=T["float64"]).uniform_(-1, 1)
    assert T["rand"](2).tolist() == after
