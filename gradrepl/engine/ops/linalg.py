"""Linear algebra: dot, mv, mm, matmul (with PyTorch's folding and messages), outer."""
import numpy as np

from gradrepl.engine import mkl
from gradrepl.engine.ops.common import is_reduced, result
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.ops.shape import UnsafeViewBackward0 as ReshapeBackward
from gradrepl.engine.ops.shape import reshape
from gradrepl.engine.tensor import Tensor
from gradrepl.engine.util import broadcast_shape, legacy_scalar, prod, pytype
from gradrepl.limits import check_numel, check_work

_NP_NAME = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
            "bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int"}


def _check_same_dtype(a, b, what="m1 and m2"):
    if a._a.dtype != b._a.dtype:
        raise RuntimeError(f"expected {what} to have the same dtype, but got: "
                           f"{_NP_NAME[a.dtype.name]} != {_NP_NAME[b.dtype.name]}")


def _conj(xp, a, b):
    """Complex operands of a product conjugated: each gradient is grad times the other's conjugate
    (PyTorch's convention); real ones as they are."""
    if (a.dtype.is_complex if xp.tensors else a.dtype.kind == "c"):
        return xp.conj(a), xp.conj(b)
    return a, b


@rule("DotBackward0", ("self", "tensor"), ("grad * tensor.conj()", "grad * self.conj()"), saved=("self", "tensor"),
      needed_by=((1,), (0,)))
def DotBackward0(grad, xp, node, self, tensor):
    self, tensor = _conj(xp, self, tensor)
    ea, eb = node.edges
    return (None if ea is None else grad * tensor, None if eb is None else grad * self)


@rule("MvBackward0", ("self", "vec"), ("grad.ger(vec)", "self.t().mv(grad)"), saved=("self", "vec"), needed_by=((1,), (0,)))
def MvBackward0(grad, xp, node, self, vec):
    self, vec = _conj(xp, self, vec)
    ea, eb = node.edges
    return (None if ea is None else xp.outer(grad, vec), None if eb is None else xp.matmul(xp.mT(self), grad))


def _column_major(xp, x):
    a = xp.raw(x)
    return a.ndim == 2 and a.strides[0] == a.itemsize and a.strides[1] == a.shape[0] * a.itemsize


def mm_mat1_backward(xp, grad, mat1, mat2):
    """PyTorch's mm_mat1_backward: a column-major mat1 (a transposed view) gets its gradient
    as mat2 @ grad^T, transposed, which is another BLAS call with other last bits."""
    if _column_major(xp, mat1):
        return xp.mT(xp.matmul(mat2, xp.mT(grad)))
    return xp.matmul(grad, xp.mT(mat2))


def mm_mat2_backward(xp, grad, mat1, mat2):
    """PyTorch's mm_mat2_backward: a column-major mat2 (nn.Linear's weight.t()) gets
    (grad^T @ mat1)^T."""
    if _column_major(xp, mat2):
        return xp.mT(xp.matmul(xp.mT(grad), mat1))
    return xp.matmul(xp.mT(mat1), grad)


@rule("MmBackward0", ("self", "mat2"), ("grad.mm(mat2.t())", "self.t().mm(grad)"), saved=("self", "mat2"), needed_by=((1,), (0,)))
def MmBackward0(grad, xp, node, self, mat2):
    self, mat2 = _conj(xp, self, mat2)
    ea, eb = node.edges   # an input that needs no gradient costs no matmul
    return (None if ea is None else mm_mat1_backward(xp, grad, self, mat2),
            None if eb is None else mm_mat2_backward(xp, grad, self, mat2))


def _matmul_general(grad, xp, node, self, other, self_shape, other_shape):
    self, other = _conj(xp, self, other)
    sa, sb = self_shape, other_shape
    a2 = xp.reshape(self, (1,) + tuple(sa)) if len(sa) == 1 else self
    b2 = xp.reshape(other, tuple(sb) + (1,)) if len(sb) == 1 else other
    g2 = grad
    if len(sa) == 1:
        g2 = xp.unsqueeze_dims(g2, (g2.ndim - 1,))
    if len(sb) == 1:
        g2 = xp.unsqueeze_dims(g2, (g2.ndim,))
    ea, eb = node.edges
    ga = gb = None
    if ea is not None:
        ga = xp.matmul(g2, xp.mT(b2))
        if len(sa) == 1:   # the backward of matmul's unsqueeze(0): squeeze (SqueezeBackward1 under create_graph)
            ga = xp.squeeze_dim(xp.sum_to(ga, (1,) + tuple(sa)), 0, sa)
        ga = xp.sum_to(ga, sa)
    if eb is not None:
        gb = xp.matmul(xp.mT(a2), g2)
        if len(sb) == 1:
            gb = xp.squeeze_dim(xp.sum_to(gb, tuple(sb) + (1,)), -1, sb)
        gb = xp.sum_to(gb, sb)
    return (ga, gb)


_MATMUL = dict(saved=("self", "other"), ctx=("self_shape", "other_shape"), needed_by=((1,), (0,)))
UnsafeViewBackward0 = rule("UnsafeViewBackward0", ("self", "other"), ("(batched matmul) grad @ other.mT", "self.mT @ grad"),
                           **_MATMUL)(_matmul_general)
SqueezeBackward4 = rule("SqueezeBackward4", ("self", "other"), ("(vector @ matrix) grad @ other.mT", "self.mT @ grad"),
                        **_MATMUL)(_matmul_general)


def matrix_product(f, xa, xb):
    """f(xa, xb); float16/bfloat16 operands are multiplied in float32 and the result rounded.
    Refused first when it could not end within the time limit (one C call, see check_work)."""
    sa, sb = xa.shape, xb.shape
    k = sa[-1] if sa else 1
    m = sa[-2] if len(sa) > 1 else 1
    n = sb[-1] if len(sb) > 1 else 1
    ba, bb = sa[:-2][::-1], sb[:-2][::-1]
    batch = prod(max(ba[i] if i < len(ba) else 1, bb[i] if i < len(bb) else 1)
                 for i in range(max(len(ba), len(bb))))
    check_work(batch * m * k * n, "int" if xa.dtype.kind in "iu" else "float")
    if is_reduced(xa):
        return np.asarray(f(xa.astype(np.float32), xb.astype(np.float32))).astype(xa.dtype)
    out = blas_product(xa, xb)
    return f(xa, xb) if out is None else out


def blas_product(xa, xb):
    """xa @ xb for float arrays as PyTorch's CPU build computes it with MKL (dot, mv, mm, bmm;
    batches broadcast and reshaped to 3-D as at::matmul does); None without MKL or for other
    dtypes (the caller's NumPy product then)."""
    na, nb = xa.ndim, xb.ndim
    if na == 1 and nb == 1:
        return mkl.dot(xa, xb)
    if na == 2 and nb == 1:
        return mkl.mv(xa, xb)
    if na == 2 and nb == 2:
        return mkl.mm(xa, xb)
    if na == 1 and nb == 2:
        out = mkl.mm(xa.reshape(1, -1), xb)
        return None if out is None else out.reshape(-1)
    if na == 3 and nb == 3 and xa.shape[0] == xb.shape[0]:
        return mkl.bmm(xa, xb)
    if na < 1 or nb < 1:
        return None
    a3 = xa if na > 1 else xa.reshape(1, -1)
    b3 = xb if nb > 1 else xb.reshape(-1, 1)
    batch = np.broadcast_shapes(a3.shape[:-2], b3.shape[:-2])
    bs = prod(batch)
    a3 = np.broadcast_to(a3, batch + a3.shape[-2:]).reshape((bs,) + a3.shape[-2:])
    b3 = np.broadcast_to(b3, batch + b3.shape[-2:]).reshape((bs,) + b3.shape[-2:])
    out = mkl.bmm(a3, b3)
    if out is None:
        return None
    shape = batch + ((a3.shape[1],) if na > 1 else ()) + ((b3.shape[2],) if nb > 1 else ())
    return out.reshape(shape)


@declare("dot", rules=[DotBackward0], bare=True)
def dot(a, b):
    if a._a.ndim != 1 or b._a.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a._a.ndim}D and {b._a.ndim}D tensors")
    if a._a.dtype != b._a.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {legacy_scalar(a.dtype)} "
                           f"and {legacy_scalar(b.dtype)}")
    if a._a.shape != b._a.shape:
        n, m = a._a.shape[0], b._a.shape[0]
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{n}] and src [{m}] to have the same number "
                           f"of elements, but got {n} and {m} elements respectively")
    out = np.asarray(matrix_product(np.dot, a._a, b._a))
    return result(out, DotBackward0, (a, b), (a, b), None)


@declare("mv", rules=[MvBackward0])
def mv(a, b):
    if a._a.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if a._a.ndim != 2 or b._a.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a._a.ndim}, {b._a.ndim}")
    if a._a.shape[1] != b._a.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a._a.shape[0]}), mat ({'x'.join(map(str, a._a.shape))}), "
                           f"vec ({b._a.shape[0]})")
    if a._a.dtype != b._a.dtype:   # mv runs as addmv(self, mat, vec) with self of vec's dtype
        va, ma = legacy_scalar(b.dtype), legacy_scalar(a.dtype)
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {va}, {ma}, and {va}")
    return result(np.asarray(matrix_product(np.matmul, a._a, b._a)), MvBackward0, (a, b), (a, b), None)


@declare("mm", rules=[MmBackward0], bare=True)
def mm(a, b):
    if a._a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b._a.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a._a.shape[1] != b._a.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a._a.shape[0]}x{a._a.shape[1]} and "
                           f"{b._a.shape[0]}x{b._a.shape[1]})")
    _check_same_dtype(a, b)
    check_numel(a._a.shape[0] * b._a.shape[1])
    return result(matrix_product(np.matmul, a._a, b._a), MmBackward0, (a, b), (a, b), None)


@declare("matmul", rules=[DotBackward0, MvBackward0, MmBackward0, UnsafeViewBackward0, SqueezeBackward4,
                          ReshapeBackward], bare=True,
         dunders={"__matmul__": lambda self, other: matmul(self, other) if type(other) is Tensor else NotImplemented,
                  "__rmatmul__": lambda self, other: NotImplemented})
def matmul(a, b):
    if type(b) is not Tensor:
        raise TypeError(f"matmul(): argument 'other' (position 1) must be Tensor, not {pytype(b)}")
    na, nb = a._a.ndim, b._a.ndim
    if na == 0 or nb == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {na}D and {nb}D")
    if na == 1 and nb == 1:
        return dot(a, b)
    if na == 2 and nb == 1:
        return mv(a, b)
    if na == 2 and nb == 2:
        return mm(a, b)
    sa, sb = a._a.shape, b._a.shape
    if na == 1 and nb == 2:
        if sa[0] != sb[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{sa[0]} and {sb[0]}x{sb[1]})")
    elif _matmul_folds(a, b):
        _check_folded_matmul(sa, sb)
    else:
        batch = broadcast_shape(sa[:-2], sb[:-2])
        m1, m2 = sa[-1], (sb[-2] if nb > 1 else sb[0])
        if m1 != m2:
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{prod(batch)}, {m1}] "
                               f"but got: [{prod(batch)}, {m2}].")
    _check_same_dtype(a, b)
    batch = broadcast_shape(sa[:-2] if na > 2 else (), sb[:-2] if nb > 2 else ())
    check_numel(prod(batch) * (sa[-2] if na > 1 else 1) * (sb[-1] if nb > 1 else 1))
    if na >= 3 and nb == 2 and _matmul_folds(a, b):
        # PyTorch folds (..., k) @ (k, n) into one mm: reshape (ViewBackward0), mm (MmBackward0),
        # _unsafe_view (UnsafeViewBackward0); the weight's gradient is one (k, rows) @ (rows, n)
        # product, not a sum of per-batch products (other last bits)
        folded = mm(reshape(a, (-1, sa[-1])), b)
        return result(folded._a.reshape(sa[:-1] + (sb[-1],)), ReshapeBackward, (folded,), (), folded._a.shape)
    out = np.asarray(matrix_product(np.matmul, a._a, b._a))
    spec = SqueezeBackward4 if na == 1 or (nb == 1 and na == 2) else UnsafeViewBackward0
    return result(out, spec, (a, b), (a, b), (sa, sb))


def _matmul_folds(a, b):
    """PyTorch's should_fold: a 3-D-or-more operand against a vector or matrix runs as one mm/mv
    on the folded larger operand (which decides the error message a shape mismatch gets)."""
    na, nb = a._a.ndim, b._a.ndim
    larger, smaller = (a, b) if na >= nb else (b, a)
    if not (larger._a.ndim >= 3 and smaller._a.ndim <= 2):
        return False
    if smaller.requires_grad:
        return True
    if na == 2:
        return False
    shape = list(larger._a.shape)
    strides = [prod(shape[i + 1:]) for i in range(len(shape))]  # PyTorch's contiguous strides
    if larger is b:  # the larger operand enters transposed (mT)
        shape[-1], shape[-2] = shape[-2], shape[-1]
        strides[-1], strides[-2] = strides[-2], strides[-1]
    if 0 in shape:
        return True
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))


def _check_folded_matmul(sa, sb):
    if len(sb) > len(sa):  # b @ ... folded as (b.mT @ a.mT).mT
        t1 = sb[:-2] + (sb[-1], sb[-2])
        t2 = (sa[1], sa[0]) if len(sa) == 2 else sa
    else:
        t1, t2 = sa, sb
    rows, k = prod(t1[:-1]), t1[-1]
    if k != t2[0]:
        if len(t2) == 2:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and {t2[0]}x{t2[1]})")
        raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x{k}), vec ({t2[0]})")




@declare("outer", aliases=("ger",), rules=[], bare=True)
def outer(a, b):
    return a.reshape(-1, 1) * b.reshape(1, -1)
