"""torch.linalg (and its torch.* aliases): norms, inverse, determinant, solve, and the
decompositions learners print (qr, svd, eigh, cholesky), with PyTorch's node names.

Factorisations call NumPy's LAPACK; like matrix products, their last bits may differ
from PyTorch's MKL (README: Matrix products)."""
import numpy as np

from gradrepl.engine.autograd import GRAD, Node, SavedOutput, edge_of
from gradrepl.engine.ops.common import RESULT, result
from gradrepl.engine.ops import reduce
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.ops.shape import cat
from gradrepl.engine.ops.sorting import returns
from gradrepl.engine.tensor import _new
from gradrepl.engine.util import wrap_dim


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError (PyTorch's own class is a RuntimeError)."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"   # torch._C._LinAlgError, as errors print it

def _square(a, name):
    if a.ndim < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are {a.shape[-2]} by "
                           f"{a.shape[-1]} matrices")


def _float(t, name):
    if t._a.dtype.kind not in "fV":
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as input. Got "
                           f"{t.dtype.legacy[:-len('Tensor')]}")


def _mT(xp, a):
    return xp.mT(a)


# ================================================================ matrix_exp
def _expm(a):
    """exp of (batches of) square matrices in float64: scaling and squaring of a degree-18
    Taylor polynomial (PyTorch runs Bader-Blanes-Casas in the input's dtype: the last bits
    may differ, as for the factorisations)."""
    a = a.astype(np.float64)
    norm = float(np.abs(a).sum(-2).max()) if a.size else 0.0
    squarings = max(0, int(np.ceil(np.log2(norm))) + 1) if norm > 0.5 else 0
    a = a / 2.0 ** squarings
    term = np.broadcast_to(np.eye(a.shape[-1]), a.shape).copy()
    out = term.copy()
    for k in range(1, 19):
        term = term @ a / k
        out = out + term
    for _ in range(squarings):
        out = out @ out
    return out


@rule("LinalgMatrixExpBackward0", ("self",), ("linalg_matrix_exp_differential(self, grad, adjoint=True)",),
      saved=("self",))
def LinalgMatrixExpBackward0(grad, xp, self):
    # the upper-right block of exp([[A^H, G], [0, A^H]]) (Najfeld and Havel)
    if xp.tensors:      # under create_graph: the same block through the op itself, so it differentiates again
        at = self.mT
        top, bottom = cat([at, grad], -1), cat([at * 0, at], -1)
        n = at.shape[-1]
        return (matrix_exp(cat([top, bottom], -2)).narrow(-2, 0, n).narrow(-1, n, n),)
    a, g = xp.raw(self), xp.raw(grad)
    n = a.shape[-1]
    big = np.zeros(a.shape[:-2] + (2 * n, 2 * n))
    big[..., :n, :n] = big[..., n:, n:] = np.swapaxes(a, -1, -2)
    big[..., :n, n:] = g
    return (xp.constant(_expm(big)[..., :n, n:].astype(a.dtype)),)


@declare("matrix_exp", rules=[LinalgMatrixExpBackward0])
def matrix_exp(self):
    _square(self._a, "matrix_exp")
    _float(self, "matrix_exp")
    return result(_expm(self._a).astype(self._a.dtype), LinalgMatrixExpBackward0, (self,), (self,))


# ================================================================ det, slogdet
@rule("LinalgDetBackward0", ("A",), ("grad * det * A.inverse().mH",), saved=("A", "result"))
def LinalgDetBackward0(grad, xp, A, result):
    # under create_graph the inverse is the op itself, so that second derivatives flow through it
    inv = inverse(A) if xp.tensors else xp.constant(np.linalg.inv(xp.raw(A)).astype(xp.raw(A).dtype))
    g = _expand2(xp, grad * result)
    return (g * _mT(xp, inv),)


def _expand2(xp, v):
    return xp.unsqueeze_dims(v, (len(v.shape), len(v.shape) + 1))


@declare("det", rules=[LinalgDetBackward0])
def det(self):
    _float(self, "det")
    _square(self._a, "det")
    out = np.asarray(np.linalg.det(self._a)).astype(self._a.dtype)
    return result(out, LinalgDetBackward0, (self,), (self, RESULT))


def slogdet(self):
    _square(self._a, "slogdet")
    sign, logabs = np.linalg.slogdet(self._a)
    dt = self._a.dtype
    return returns("linalg_slogdet", ("sign", "logabsdet"))((_new(np.asarray(sign, dt)), _new(np.asarray(logabs, dt))))


def logdet(self):
    return det(self).log()


# ================================================================ inv, solve
@rule("LinalgInvExBackward0", ("A",), ("-inverse.mH @ grad @ inverse.mH",), saved=("result",))
def LinalgInvExBackward0(grad, xp, result):
    it = _mT(xp, result)
    return (-xp.matmul(xp.matmul(it, grad), it),)


def _check_invertible(a, name):
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        # PyTorch names the first zero pivot of the LU factorisation (1-based)
        raise LinAlgError(f"linalg.{name}: The diagonal element {_zero_pivot(a)} is zero, the inversion could not be "
                          "completed because the input matrix is singular.") from None


def _zero_pivot(a):
    m = np.array(a, np.float64).reshape(a.shape[-2:]) if a.ndim == 2 else np.array(a[(0,) * (a.ndim - 2)], np.float64)
    n = m.shape[0]
    for k in range(n):
        p = k + int(np.argmax(np.abs(m[k:, k])))
        if m[p, k] == 0:
            return k + 1
        m[[k, p]] = m[[p, k]]
        m[k + 1:] -= np.outer(m[k + 1:, k] / m[k, k], m[k])
    return n


@declare("inverse", rules=[LinalgInvExBackward0])
def inverse(self):
    _float(self, "inv")
    _square(self._a, "inv")
    out = np.asarray(_check_invertible(self._a, "inv")).astype(self._a.dtype)
    return result(out, LinalgInvExBackward0, (self,), (RESULT,))


@rule("LinalgSolveExBackward0", ("A", "B"), ("-gB @ X.mH (A side)", "A^-H @ grad"), saved=("A", "result"),
      ctx=("vector",))
def LinalgSolveExBackward0(grad, xp, A, result, vector):
    a = xp.raw(A)
    ainvT = _mT(xp, inverse(A)) if xp.tensors else xp.constant(np.linalg.inv(a).swapaxes(-1, -2).astype(a.dtype))
    g = grad
    x = result
    if vector:
        g = xp.unsqueeze_dims(g, (len(g.shape),))
        x = xp.unsqueeze_dims(x, (len(x.shape),))
    gb = xp.matmul(ainvT, g)
    ga = -xp.matmul(gb, _mT(xp, x))
    if vector:
        gb = xp.reshape(gb, tuple(gb.shape[:-1]))
    return (ga, gb)


def solve(A, B, *, left=True, out=None):
    _float(A, "solve")
    _square(A._a, "solve")
    a, b = A._a, B._a
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    _check_invertible(a, "solve")
    bb = b[..., None] if vector else b
    x = np.linalg.solve(a, bb)
    if vector:
        x = x[..., 0]
    return result(np.asarray(x).astype(np.result_type(a, b)), LinalgSolveExBackward0, (A, B), (A, RESULT), vector)


declare("linalg_solve", solve, method=False, function=False, rules=[LinalgSolveExBackward0])


# ================================================================ norms
def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    if isinstance(ord, str):    # the call site answers PyTorch's parser message (signatures.json)
        raise TypeError("linalg.vector_norm: ord must be a number")
    return x.norm(ord, dim, keepdim)


def _matrix_norm_checks(A, ord, dim):
    """ATen's order of checks in linalg_matrix_norm: the order, then A's rank and the two dims."""
    if ord not in ("fro", "nuc", 1, -1, 2, -2, float("inf"), -float("inf")):
        shown = ord if isinstance(ord, str) else f"{ord:g}"       # C++ prints the double as %g does
        raise RuntimeError(f"linalg.matrix_norm: Order {shown} not supported.")
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    wrapped = tuple(wrap_dim(d, A.dim()) for d in dim)
    if wrapped[0] == wrapped[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({wrapped[0]}, {wrapped[1]})")


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    _matrix_norm_checks(A, ord, tuple(dim))
    if ord == "fro":
        return A.norm(2, dim, keepdim)
    if ord in ("nuc", 2, -2):
        return _svd_norm(A, ord, dim, keepdim)
    if ord in (1, -1):
        s = A.abs().sum(dim[0], keepdim=True)
        r = s.amax(dim[1], keepdim=True) if ord == 1 else s.amin(dim[1], keepdim=True)
    elif ord in (float("inf"), -float("inf")):
        s = A.abs().sum(dim[1], keepdim=True)
        r = s.amax(dim[0], keepdim=True) if ord > 0 else s.amin(dim[0], keepdim=True)
    return r if keepdim else r.squeeze(max(dim) % A.dim()).squeeze(min(dim) % A.dim())


def linalg_norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    if ord is None:
        if dim is None:
            return A.reshape(-1).norm(2, None, False) if not keepdim else A.norm(2, None, True)
        return A.norm(2, dim, keepdim)
    if (dim is None and A.dim() == 2) or (dim is not None and not isinstance(dim, int) and len(dim) == 2):
        return matrix_norm(A, ord, dim if dim is not None else (-2, -1), keepdim)
    return A.norm(ord, dim, keepdim)


# ================================================================ decompositions, ranks, powers
@declare("norm", rules=[reduce.LinalgVectorNormBackward0])
def norm(self, p="fro", dim=None, keepdim=False):
    """torch.norm: a vector norm, except "nuc" and "fro" over more than two dims (matrix_norm's)."""
    if isinstance(p, str) and not (p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2)):
        return matrix_norm(self, p, tuple(range(self._a.ndim)) if dim is None else dim, keepdim)
    return reduce.vector_norm(self, p, dim, keepdim, reduce.LinalgVectorNormBackward0)


def _svd_norm(A, ord, dim, keepdim):
    """The nuclear norm and the 2 / -2 norms: the singular values of the two dims moved last."""
    d0, d1 = (wrap_dim(d, A.dim()) for d in dim)
    sv = _svdvals(A.movedim((d0, d1), (-2, -1)))
    r = sv.sum(-1) if ord == "nuc" else sv.amax(-1) if ord == 2 else sv.amin(-1)
    return r.unsqueeze(min(d0, d1)).unsqueeze(max(d0, d1)) if keepdim else r


def _svdvals(A):
    """torch.linalg.svdvals: S of the SVD, with LinalgSvdBackward0 when A needs a gradient."""
    if GRAD[0] and (A._fn is not None or A._rg) and A._a.dtype.kind == "f":
        return _svd_outputs(A, False)[1]
    s = np.linalg.svd(A._a, compute_uv=False)
    return _new(np.asarray(s).astype(A._a.dtype))


@rule("LinalgSvdBackward0", ("A",),
      ("U [(skew(U^T gU) / E) S + S (skew(V^T gV) / E) + diag(gS)] V^T + (I - U U^T) gU S^-1 V^T "
       "+ U S^-1 gV^T (I - V V^T), E_jk = S_k^2 - S_j^2",),
      saved=("U", "S", "Vh"), multi=True)
def LinalgSvdBackward0(grads, xp, U, S, Vh):
    """PyTorch's svd_backward (real case); with full_matrices the extra columns get no gradient."""
    gU, gS, gVh = grads
    k = xp.raw(S).shape[-1]
    if xp.raw(U).shape[-1] != k:
        U = xp.index(U, (Ellipsis, slice(0, k)))
        gU = None if gU is None else xp.index(gU, (Ellipsis, slice(0, k)))
    if xp.raw(Vh).shape[-2] != k:
        Vh = xp.index(Vh, (Ellipsis, slice(0, k), slice(None)))
        gVh = None if gVh is None else xp.index(gVh, (Ellipsis, slice(0, k), slice(None)))
    row = xp.unsqueeze_dims(S, (len(S.shape) - 1,))      # S as a row: scales columns
    col = xp.unsqueeze_dims(S, (len(S.shape),))          # S as a column: scales rows
    eye = xp.constant(np.eye(k, dtype=xp.raw(S).dtype))
    inner = None
    if gS is not None:
        inner = xp.unsqueeze_dims(gS, (len(gS.shape),)) * eye
    if gU is not None or gVh is not None:
        s2 = S * S
        E = xp.unsqueeze_dims(s2, (len(s2.shape) - 1,)) - xp.unsqueeze_dims(s2, (len(s2.shape),)) + eye
        if gU is not None:
            UhgU = xp.matmul(_mT(xp, U), gU)
            term = (UhgU - _mT(xp, UhgU)) / E * row
            inner = term if inner is None else inner + term
        if gVh is not None:
            V, gV = _mT(xp, Vh), _mT(xp, gVh)
            VhgV = xp.matmul(Vh, gV)
            term = col * ((VhgV - _mT(xp, VhgV)) / E)
            inner = term if inner is None else inner + term
    gA = None if inner is None else xp.matmul(xp.matmul(U, inner), Vh)
    m, n = xp.raw(U).shape[-2], xp.raw(Vh).shape[-1]
    if gU is not None and m > k:
        extra = xp.matmul((gU - xp.matmul(U, UhgU)) / row, Vh)
        gA = extra if gA is None else gA + extra
    if gVh is not None and n > k:
        extra = xp.matmul(U, _mT(xp, (gV - xp.matmul(V, VhgV)) / row))
        gA = extra if gA is None else gA + extra
    return (gA,)


def _svd_outputs(A, full_matrices):
    """U, S, Vh as Tensors, one LinalgSvdBackward0 node for the three when A needs a gradient."""
    u, s, vh = np.linalg.svd(A._a, full_matrices=full_matrices)
    dt = A._a.dtype
    outs = (_new(u.astype(dt)), _new(s.astype(dt)), _new(vh.astype(dt)))
    if GRAD[0] and (A._fn is not None or A._rg) and dt.kind == "f":
        node = Node(LinalgSvdBackward0, (edge_of(A),), outs, None)
        node.n_out = 3
        for k, o in enumerate(outs):
            o._fn, o._onr = node, k
        node.saved = tuple(SavedOutput(o, node) for o in outs)
        node.saved_outputs = (0, 1, 2)
    return outs


def svd_(A, full_matrices=True):
    return returns("linalg_svd", ("U", "S", "Vh"))(_svd_outputs(A, full_matrices))


@declare("svd", rules=[LinalgSvdBackward0])
def svd(self, some=True, compute_uv=True):
    u, s, vh = _svd_outputs(self, not some)
    v = vh.transpose(-2, -1)     # PyTorch's V: TransposeBackward0 of Vh
    return returns("svd", ("U", "S", "V"))((u, s, v))


def qr(A, mode="reduced"):
    q, r = np.linalg.qr(A._a, mode="complete" if mode == "complete" else "reduced")
    dt = A._a.dtype
    return returns("linalg_qr", ("Q", "R"))((_new(q.astype(dt)), _new(r.astype(dt))))


def eigh(A, UPLO="L"):
    w, v = np.linalg.eigh(A._a, UPLO=UPLO)
    dt = A._a.dtype
    return returns("linalg_eigh", ("eigenvalues", "eigenvectors"))((_new(w.astype(dt)), _new(v.astype(dt))))


def eigvalsh(A, UPLO="L"):
    return _new(np.linalg.eigvalsh(A._a, UPLO=UPLO).astype(A._a.dtype))


@rule("LinalgCholeskyExBackward0", ("self",), ("sym(L^-H (L^H gL).tril() with halved diagonal L^-1)",),
      saved=("result",), ctx=("upper",))
def LinalgCholeskyExBackward0(grad, xp, result, upper):
    # PyTorch's cholesky_backward: phi = L^H gL, lower triangle, diagonal halved; gA = L^-H phi L^-1, symmetrized
    L, gL = (_mT(xp, result), _mT(xp, grad)) if upper else (result, grad)
    phi = xp.matmul(_mT(xp, L), gL)
    if xp.tensors:
        phi = phi.tril() - 0.5 * phi.diagonal(0, -2, -1).diag_embed()
        linv = inverse(L)
    else:
        p = np.tril(xp.raw(phi))
        idx = np.arange(p.shape[-1])
        p[..., idx, idx] *= 0.5
        phi = xp.constant(p)
        linv = xp.constant(np.linalg.inv(xp.raw(L)).astype(xp.raw(L).dtype))
    ga = xp.matmul(xp.matmul(_mT(xp, linv), phi), linv)
    return (0.5 * (ga + _mT(xp, ga)),)


def cholesky_failures(a):
    """LAPACK potrf's unblocked factor and `info` per matrix: the order of the first leading minor that is
    not positive-definite (0 when none); the failing pivot stays on the diagonal, the rest of A as given."""
    flat = a.reshape((-1,) + a.shape[-2:])
    factors, infos = np.tril(flat).copy(), np.zeros(flat.shape[0], np.int32)
    n = a.shape[-1]
    for b in range(flat.shape[0]):
        L = factors[b]
        for j in range(n):
            d = L[j, j] - np.dot(L[j, :j], L[j, :j])
            if not d > 0:
                L[j, j] = d
                infos[b] = j + 1
                break
            L[j, j] = np.sqrt(d)
            for i in range(j + 1, n):
                L[i, j] = (L[i, j] - np.dot(L[i, :j], L[j, :j])) / L[j, j]
    return factors.reshape(a.shape), infos.reshape(a.shape[:-2])


def cholesky(A, *, upper=False):
    try:
        c = np.linalg.cholesky(A._a)
    except np.linalg.LinAlgError:
        infos = cholesky_failures(A._a)[1]
        where = np.flatnonzero(infos)[0]
        batch = f"(Batch element {where}): " if infos.ndim else ""
        raise LinAlgError(f"linalg.cholesky: {batch}The factorization could not be completed because the input is "
                          f"not positive-definite (the leading minor of order {infos.flat[where]} is not "
                          "positive-definite).") from None
    c = c.astype(A._a.dtype)
    return result(np.swapaxes(c, -1, -2).copy() if upper else c, LinalgCholeskyExBackward0, (A,), (RESULT,), upper)


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False):
    return _new(np.asarray(np.linalg.matrix_rank(A._a), np.int64))


@declare("matrix_power", rules=[])
def matrix_power(self, n):
    _square(self._a, "matrix_power")
    if n == 0:
        eye = np.broadcast_to(np.eye(self._a.shape[-1], dtype=self._a.dtype), self._a.shape)
        return _new(eye.copy())
    base = self if n > 0 else inverse(self)
    acc = base
    for _ in range(abs(n) - 1):
        acc = acc.matmul(base)
    return acc


def pinv(A, *, atol=None, rtol=None, hermitian=False):
    return _new(np.linalg.pinv(A._a).astype(A._a.dtype))


def lstsq(A, B, rcond=None, *, driver=None):
    sol, res, rank, sv = np.linalg.lstsq(A._a, B._a, rcond=rcond)
    dt = A._a.dtype
    empty = _new(np.zeros((0,), dt))
    return returns("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))(
        (_new(sol.astype(dt)), empty, _new(np.asarray(rank, np.int64)), empty))


def eigvals_general(A):
    raise RuntimeError("linalg.eigvals: complex results are not available in gradrepl")


LINALG = {
    "norm": linalg_norm, "vector_norm": vector_norm, "matrix_norm": matrix_norm,
    "inv": inverse, "det": det, "matrix_exp": matrix_exp, "slogdet": slogdet, "solve": solve,
    "matrix_rank": matrix_rank, "matrix_power": matrix_power, "eigvalsh": eigvalsh, "eigh": eigh,
    "cholesky": cholesky, "qr": qr, "svd": svd_, "svdvals": _svdvals, "pinv": pinv, "lstsq": lstsq,
    "diagonal": lambda A, *, offset=0, dim1=-2, dim2=-1: A.diagonal(offset, dim1, dim2),
    "matmul": lambda input, other: input.matmul(other),
    "eigvals": eigvals_general, "eig": eigvals_general, "LinAlgError": LinAlgError,
}
EXTRA_TORCH = {"logdet": logdet, "slogdet": slogdet, "pinverse": pinv,   # torch.cholesky: ops/linalg_compat.py
               "qr": lambda A, some=True: returns("qr", ("Q", "R"))(tuple(qr(A, "reduced" if some else "complete")))}
