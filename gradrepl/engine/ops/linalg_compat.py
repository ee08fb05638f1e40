"""The older linear-algebra names PyTorch keeps beside torch.linalg: cholesky (deprecated),
cholesky_solve, cholesky_inverse, triangular_solve, lu, lu_unpack, lu_solve; computed with
the torch.linalg kernels (breadth_special's triangular solves and LU), with the node names
and gradient formulas PyTorch records for these spellings."""
import numpy as np

from gradrepl.engine.autograd import GRAD, Node, SavedOutput, edge_of
from gradrepl.engine.ops import linalg_ext
from gradrepl.engine.ops.breadth_special import (LinalgLuFactorExBackward0, LinalgLuSolveBackward0, _lu_factor_ex,
                                                 _lu_solve, _permutation, _solve_tri, _unpack)
from gradrepl.engine.ops.common import result
from gradrepl.engine.ops.linalg_ext import LinalgCholeskyExBackward0
from gradrepl.engine.ops.registry import RESULT, declare, rule
from gradrepl.engine.ops.sorting import returns
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import pytype


def _mT(a):
    return np.swapaxes(a, -1, -2)


def _check_tensor(x, name, arg, pos):
    if type(x) is not Tensor:
        raise TypeError(f"{name}(): argument '{arg}' (position {pos}) must be Tensor, not {pytype(x)}")


# ------------------------------------------------------------------ cholesky
CholeskyBackward0 = rule("CholeskyBackward0", ("self",), LinalgCholeskyExBackward0.formulas, saved=("result",),
                         ctx=("upper",))(LinalgCholeskyExBackward0.fn)


@declare("cholesky", rules=[CholeskyBackward0])
def cholesky(self, upper=False):
    L = linalg_ext.cholesky(self.detach(), upper=upper)._a
    return result(L, CholeskyBackward0, (self,), (RESULT,), upper)


def _factor(L, upper):
    """A = L L^H (or U^H U) of the factor's array."""
    return _mT(L) @ L if upper else L @ _mT(L)


def _cholesky_solve_array(b, L, upper):
    lower = _mT(L) if upper else L
    y = _solve_tri(lower, b, False, True, False)
    return _solve_tri(_mT(lower), y, True, True, False)


@rule("CholeskySolveBackward0", ("self", "input2"),
      ("grad.cholesky_solve(input2, upper)", "-(common @ input2) or -(input2 @ common), common = sym(gB X^H)"),
      saved=("input2", "result"), ctx=("upper",))
def CholeskySolveBackward0(grad, xp, node, input2, result, upper):
    L, X, g = xp.raw(input2), xp.raw(result), xp.raw(grad)
    gb = _cholesky_solve_array(g, L, upper).astype(g.dtype)
    gL = None
    if node.edges[1] is not None:
        common = gb @ _mT(X)
        common = common + _mT(common)
        gL = xp.constant((-(L @ common) if upper else -(common @ L)).astype(g.dtype))
    return (xp.constant(gb) if node.edges[0] is not None else None, gL)


@declare("cholesky_solve", rules=[CholeskySolveBackward0])
def cholesky_solve(self, input2, upper=False):
    _check_tensor(input2, "cholesky_solve", "input2", 2)
    if self._a.ndim < 2 or input2._a.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {self._a.ndim} dimensions instead"
                           if self._a.ndim < 2 else
                           f"u should have at least 2 dimensions, but has {input2._a.ndim} dimensions instead")
    x = _cholesky_solve_array(self._a, input2._a, upper).astype(np.result_type(self._a, input2._a))
    return result(x, CholeskySolveBackward0, (self, input2), (input2, RESULT), upper)


@rule("CholeskyInverseBackward0", ("self",), ("-(common @ L) or -(L @ common), common = inv (grad + grad^H) inv",),
      saved=("self", "result"), ctx=("upper",))
def CholeskyInverseBackward0(grad, xp, self, result, upper):
    L, inv, g = xp.raw(self), xp.raw(result), xp.raw(grad)
    common = inv @ ((g + _mT(g)) @ inv)
    return (xp.constant((-(L @ common) if upper else -(common @ L)).astype(g.dtype)),)


@declare("cholesky_inverse", rules=[CholeskyInverseBackward0])
def cholesky_inverse(self, upper=False):
    a = self._a
    if a.ndim < 2:
        raise RuntimeError(f"cholesky_inverse: The input tensor A must have at least 2 dimensions.")
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    inv = _cholesky_solve_array(eye, a, upper).astype(a.dtype)
    return result(inv, CholeskyInverseBackward0, (self,), (self, RESULT), upper)


# ------------------------------------------------------------------ triangular_solve
def _tri_mask(a, upper, unitriangular):
    k = 1 if unitriangular else 0
    return np.triu(a, k) if upper else np.tril(a, -k)


@rule("TriangularSolveBackward0", ("self", "A"),
      ("triangular_solve(grad, A^H, upper, not transpose).solution",
       "-gB X^H (or -X gB^H when transposed) on A's triangle, plus the clone's gradient"),
      saved=("A", "solution"), ctx=("upper", "transpose", "unitriangular"), multi=True)
def TriangularSolveBackward0(grads, xp, node, A, solution, upper, transpose, unitriangular):
    gx, gm = grads
    a, x = xp.raw(A), xp.raw(solution)
    gb = ga = None
    if gx is not None:
        g = xp.raw(gx)
        coef = a if transpose else _mT(a)
        gb = _solve_tri(coef, g, upper == transpose, True, unitriangular).astype(g.dtype)
        ga = _tri_mask(-(x @ _mT(gb)) if transpose else -(gb @ _mT(x)), upper, unitriangular)
    if gm is not None:
        ga = xp.raw(gm) if ga is None else ga + xp.raw(gm)
    if gb is None:      # PyTorch: zeros for b when only the clone's gradient flows
        gb = np.zeros(x.shape, x.dtype)
    return (None if gb is None or node.edges[0] is None else xp.constant(gb),
            None if ga is None or node.edges[1] is None else xp.constant(np.asarray(ga, a.dtype)))


@declare("triangular_solve", rules=[TriangularSolveBackward0], returns_tensor=False)
def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
    _check_tensor(A, "triangular_solve", "A", 2)
    b, a = self._a, A._a
    if b.ndim < 2 or a.ndim < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has {b.ndim} "
                           f"dimensions instead" if b.ndim < 2 else
                           f"torch.triangular_solve: Expected A to have at least 2 dimensions, but it has {a.ndim} "
                           "dimensions instead")
    coef = _mT(a) if transpose else a
    x = _solve_tri(coef, b, upper != transpose, True, unitriangular).astype(np.result_type(a, b))
    outs = (_new(x), _new(np.array(np.broadcast_to(a, x.shape[:-2] + a.shape[-2:]))))
    if GRAD[0] and any(t._fn is not None or t._rg for t in (self, A)):
        node = Node(TriangularSolveBackward0, (edge_of(self), edge_of(A)), (A, outs[0]),
                    (upper, transpose, unitriangular))
        node.saved = (A, SavedOutput(outs[0], node))
        node.saved_outputs = (1,)
        node.n_out = 2
        for k, o in enumerate(outs):
            o._fn, o._onr = node, k
    return returns("triangular_solve", ("solution", "cloned_coefficient"))(outs)


# ------------------------------------------------------------------ lu, lu_unpack, lu_solve
def lu(A, pivot=True, get_infos=False, out=None):
    """torch.lu / Tensor.lu: torch.linalg.lu_factor_ex's LU and pivots (and infos)."""
    lu_, piv, info = _lu_factor_ex(A, pivot=pivot)
    return (lu_, piv, info) if get_infos else (lu_, piv)


declare("lu", lu, rules=[LinalgLuFactorExBackward0], returns_tensor=False)


@rule("LuUnpackBackward0", ("LU_data",), ("tril(gL, -1) + triu(gU)",), ctx=("shape",), multi=True)
def LuUnpackBackward0(grads, xp, shape):
    _, gL, gU = grads
    m, n = shape[-2:]
    k = min(m, n)
    out = np.zeros(shape, np.float64)
    dt = None
    if gL is not None:
        g = xp.raw(gL)
        dt = g.dtype
        out[..., :, :k] += np.tril(g, -1)[..., :, :k]
    if gU is not None:
        g = xp.raw(gU)
        dt = g.dtype
        out[..., :k, :] += np.triu(g)[..., :k, :]
    return (xp.constant(out.astype(dt)),)


@declare("lu_unpack", method=False, rules=[LuUnpackBackward0], returns_tensor=False)
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    _check_tensor(LU_data, "lu_unpack", "LU_data", 1)
    _check_tensor(LU_pivots, "lu_unpack", "LU_pivots", 2)
    a = LU_data._a
    L, U = _unpack(a)
    P = _new(_permutation(LU_pivots._a, a.shape[-2], a.dtype)) if unpack_pivots else _new(np.zeros(0, a.dtype))
    outs = (_new(L), _new(U)) if unpack_data else (_new(np.zeros(0, a.dtype)), _new(np.zeros(0, a.dtype)))
    if unpack_data and GRAD[0] and (LU_data._fn is not None or LU_data._rg):
        node = Node(LuUnpackBackward0, (edge_of(LU_data),), (), a.shape)
        node.n_out = 3
        for k, o in enumerate(outs):
            o._fn, o._onr = node, k + 1
    return returns("lu_unpack", ("P", "L", "U"))((P, *outs))


@declare("lu_solve", rules=[LinalgLuSolveBackward0])
def lu_solve(self, LU_data, LU_pivots):
    return _lu_solve(LU_data, LU_pivots, self)
