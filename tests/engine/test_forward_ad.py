"""torch.autograd.forward_ad (tangents carried through ops by reverse mode twice) and
torch.autograd.graph's saved-tensor hooks."""
import numpy as np
import pytest

from gradrepl.engine import api, forward_ad as fwAD
from gradrepl.engine.autograd import SAVED_HOOKS
from gradrepl.engine.graph import saved_tensors_hooks
from gradrepl.engine.tensor import TANGENTS, Tensor

T = api.TORCH


def _x():
    return T["tensor"]([0.5, -1.25, 2.0], dtype=T["float64"])


def test_tangent_of_a_composite_equals_the_analytic_derivative():
    x, t = _x(), T["tensor"]([1.0, 2.0, -1.0], dtype=T["float64"])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        y = T["sin"](d) * d + (d ** 3).exp() / 4
        tangent = fwAD.unpack_dual(y).tangent
    a = x._a
    want = (np.cos(a) * a + np.sin(a) + 3 * a ** 2 * np.exp(a ** 3) / 4) * t._a
    np.testing.assert_allclose(tangent._a, want, rtol=1e-12)


def test_tangent_matches_torch_func_jvp_bit_for_bit():
    x, t = T["randn"](4, 3), T["randn"](4, 3)
    w = T["randn"](3, 2)

    def f(v):
        return T["tanh"](v @ w).sum(dim=0)

    _, ref = T["func"]["jvp"](f, (x,), (t,))
    with fwAD.dual_level():
        got = fwAD.unpack_dual(f(fwAD.make_dual(x, t))).tangent
    assert got._a.tobytes() == ref._a.tobytes()


def test_leaving_the_level_drops_tangents_and_restores_the_methods():
    exp = Tensor.__dict__["exp"]
    with fwAD.dual_level():
        assert Tensor.__dict__["exp"] is not exp
        y = fwAD.make_dual(_x(), T["ones"](3, dtype=T["float64"])).exp()
        assert fwAD.unpack_dual(y).tangent is not None
    assert Tensor.__dict__["exp"] is exp
    assert not TANGENTS
    assert fwAD.unpack_dual(y).tangent is None
    assert "tangent" not in repr(y)


def test_plain_tensors_and_levels_errors():
    with pytest.raises(RuntimeError, match="no level exists"):
        fwAD.make_dual(_x(), _x())
    with fwAD.dual_level():
        assert fwAD.unpack_dual(_x() * 2).tangent is None
        with pytest.raises(RuntimeError, match="Nested forward mode AD"):
            fwAD.enter_dual_level()
        with pytest.raises(RuntimeError, match="different size"):
            fwAD.make_dual(_x(), T["ones"](2, dtype=T["float64"]))
    fwAD.enter_dual_level()     # the failed nested enter left the level usable
    fwAD.exit_dual_level()


def test_backward_through_a_dual_that_requires_grad_still_works():
    p = _x().requires_grad_(True)
    with fwAD.dual_level():
        d = fwAD.make_dual(p, T["ones"](3, dtype=T["float64"]))
        y = (d * d).sum()
        assert fwAD.unpack_dual(y).tangent.item() == pytest.approx(2 * float(p._a.sum()))
    y.backward()
    np.testing.assert_array_equal(p.grad._a, 2 * p._a)


def test_saved_tensor_hooks_pack_at_save_and_unpack_at_backward():
    calls = []

    def pack(t):
        calls.append("pack")
        return t

    def unpack(t):
        calls.append("unpack")
        return t

    x = _x().requires_grad_(True)
    with saved_tensors_hooks(pack, unpack):
        y = (x * x).exp()          # mul saves self and other, exp its result
        z = (y * 3).sum()          # a number factor: nothing saved
    assert calls == ["pack"] * 3 and not SAVED_HOOKS
    z.backward()
    assert calls == ["pack"] * 3 + ["unpack"] * 3
    np.testing.assert_allclose(x.grad._a, 3 * np.exp(x._a ** 2) * 2 * x._a)


def test_unpack_hook_result_is_what_backward_reads():
    x = _x().requires_grad_(True)
    with saved_tensors_hooks(lambda t: t, lambda t: t * 0):
        y = (x * x).sum()
    y.backward()
    assert not x.grad._a.any()
