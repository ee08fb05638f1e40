"""Connectionist temporal classification: F.ctc_loss / torch.ctc_loss, as PyTorch's CPU kernel
(aten/src/ATen/native/LossCTC.cpp): log-space alpha (forward) and beta (backward) recursions
per sequence in the input's dtype, with std::exp / std::log (glibc's expf and logf for
float32), the gradient accumulated per character in decreasing s, then the reduction
PyTorch composes (the sum, or each loss divided by its target length and the mean)."""
import math

import numpy as np

from gradrepl.engine import kernels
from gradrepl.engine.ops.common import result
from gradrepl.engine.ops.registry import declare, rule
from gradrepl.engine.tensor import Tensor, _new
from gradrepl.engine.util import pytype

NEG = -np.inf


def _libm_exp(v):
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


def _libm_log(v):
    if v != v or v <= 0:
        return math.nan if v != v or v < 0 else -math.inf
    return math.log(v)


def _exp(x):
    """std::exp: glibc's expf for float32, the system exp (Python's math) for float64."""
    x = np.asarray(x)
    if x.dtype == np.float32:
        return kernels._exp_glibc(x)
    return np.array([_libm_exp(v) for v in x.ravel().tolist()], x.dtype).reshape(x.shape)


def _log(x):
    x = np.asarray(x)
    if x.dtype == np.float32:
        return kernels._glibc_logf(x)
    return np.array([_libm_log(v) for v in x.ravel().tolist()], x.dtype).reshape(x.shape)


def _primes(tgt, blank, L):
    prime = np.full(2 * L + 1, blank, np.int64)
    prime[1::2] = tgt[:L]
    return prime


def _lse3(a, b, c, dt):
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == NEG, dt.type(0), m)
    with np.errstate(invalid="ignore", over="ignore"):
        total = (_exp((a - m).astype(dt)) + _exp((b - m).astype(dt))).astype(dt) + _exp((c - m).astype(dt))
        return (_log(total.astype(dt)) + m).astype(dt)


def _alpha(lp, prime, T):
    dt = lp.dtype
    S = prime.shape[0]
    la = np.full((max(T, 1), S), NEG, dt)
    la[0, 0] = lp[0, prime[0]]
    if S > 1:
        la[0, 1] = lp[0, prime[1]]
    skip = np.zeros(S, bool)
    skip[2:] = prime[2:] != prime[:-2]
    ninf = np.array([NEG], dt)
    for t in range(1, T):
        prev = la[t - 1]
        la2 = np.concatenate([ninf, prev[:-1]])
        la3 = np.where(skip, np.concatenate([ninf, ninf, prev[:-2]])[:S], NEG).astype(dt)
        la[t] = (_lse3(prev, la2, la3, dt) + lp[t, prime]).astype(dt)
    return la


def _nll(la, T, L, dt):
    l1 = la[T - 1, 2 * L]
    l2 = la[T - 1, 2 * L - 1] if L > 0 else dt.type(NEG)
    m = max(l1, l2)
    m = dt.type(0) if m == NEG else m
    with np.errstate(invalid="ignore", over="ignore"):
        total = np.asarray(_exp(np.array([l1 - m], dt)) + _exp(np.array([l2 - m], dt)), dt)
        return -((_log(total) + m).astype(dt)[0])


def _grad_one(lp, la, prime, T, L, nll, gr):
    """One sequence's gradient with respect to log_probs (T_max, C)."""
    dt = lp.dtype
    S = prime.shape[0]
    out = np.zeros(lp.shape, dt)
    if T == 0:
        return out
    grad = np.full(lp.shape, NEG, dt)
    lb = np.full(S, NEG, dt)
    lb[2 * L] = lp[T - 1, 0 if S == 1 else prime[2 * L]]
    grad[T - 1, prime[2 * L]] = la[T - 1, 2 * L] + lb[2 * L]
    if L > 0:
        lb[2 * L - 1] = lp[T - 1, prime[2 * L - 1]]
        grad[T - 1, prime[2 * L - 1]] = la[T - 1, 2 * L - 1] + lb[2 * L - 1]
    skip = np.zeros(S, bool)
    skip[:-2] = prime[2:] != prime[:-2]
    ninf = np.array([NEG], dt)
    for t in range(T - 2, -1, -1):
        lb2 = np.concatenate([lb[1:], ninf])
        lb3 = np.where(skip, np.concatenate([lb[2:], ninf, ninf])[:S], NEG).astype(dt)
        lb = (_lse3(lb, lb2, lb3, dt) + lp[t, prime]).astype(dt)
        lab = (la[t] + lb).astype(dt)
        row = grad[t]
        for s in range(S - 1, -1, -1):     # PyTorch's order: decreasing s, one character at a time
            c = prime[s]
            cur = row[c]
            if cur == NEG:
                row[c] = lab[s]
            else:
                m = max(cur, lab[s])
                with np.errstate(invalid="ignore", over="ignore"):
                    total = _exp(np.array([cur - m], dt)) + _exp(np.array([lab[s] - m], dt))
                    row[c] = (_log(total.astype(dt)) + m).astype(dt)[0]
    with np.errstate(invalid="ignore", over="ignore"):
        res = (_exp(lp[:T]) - _exp(((grad[:T] + nll).astype(dt) - lp[:T]).astype(dt))).astype(dt) * dt.type(gr)
    out[:T] = res
    return out


@rule("CtcLossBackward0", ("log_probs",), ("ctc_loss_backward(grad, log_probs, targets, lengths, log_alpha)",),
      saved=("log_probs",), ctx=("seqs", "alphas", "nlls", "blank", "zero_infinity"))
def CtcLossBackward0(grad, xp, log_probs, seqs, alphas, nlls, blank, zero_infinity):
    lp = xp.raw(log_probs)
    g = np.asarray(xp.raw(grad))
    batched = lp.ndim == 3
    lp3 = lp if batched else lp[:, None, :]
    g1 = g.reshape(-1)
    out = np.zeros(lp3.shape, lp.dtype)
    for b, (prime, T, L) in enumerate(seqs):
        if zero_infinity and nlls[b] == np.inf:
            continue
        out[:, b, :] = _grad_one(lp3[:, b, :], alphas[b], prime, T, L, nlls[b], g1[b])
    out = out if batched else out[:, 0, :]
    return (xp.constant(out) if xp.tensors else out,)


def _lengths(x, name, pos):
    if type(x) is Tensor:
        return [int(v) for v in np.asarray(x._a).reshape(-1)]
    if isinstance(x, (list, tuple)):
        return [int(v) for v in x]
    if isinstance(x, int):
        return [x]
    raise TypeError(f"ctc_loss(): argument '{name}' (position {pos}) must be tuple of ints, not {pytype(x)}")


def _ctc(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity):
    lp = log_probs._a
    batched = lp.ndim == 3
    lp3 = lp if batched else lp[:, None, :]
    Tmax, N, C = lp3.shape
    il = _lengths(input_lengths, "input_lengths", 3)
    tl = _lengths(target_lengths, "target_lengths", 4)
    tg = np.asarray(targets._a).astype(np.int64)
    if len(il) != N:
        raise RuntimeError(f"input_lengths must be of size batch_size")
    if len(tl) != N:
        raise RuntimeError(f"target_lengths must be of size batch_size")
    if not 0 <= blank < C:
        raise RuntimeError("blank must be in label range")
    seqs, alphas, nlls = [], [], []
    offset = 0
    for b in range(N):
        T, L = il[b], tl[b]
        if T > Tmax:
            raise RuntimeError(f"Expected input_lengths to have value at most {Tmax}, but got value {T} (while "
                               f"checking arguments for ctc_loss_cpu)")
        if tg.ndim == 2 and batched:
            row = tg[b]
            if L > row.shape[0]:
                raise RuntimeError(f"Expected tensor to have size at least {L} at dimension 1, but got size "
                                   f"{row.shape[0]} for argument #2 'targets' (while checking arguments for "
                                   "ctc_loss_cpu)")
        else:
            row = tg.reshape(-1)[offset:offset + L]
            offset += L
        prime = _primes(row, blank, L)
        la = _alpha(lp3[:, b, :], prime, T) if T > 0 else np.full((1, 2 * L + 1), NEG, lp.dtype)
        nll = _nll(la, T, L, lp.dtype) if T > 0 else (lp.dtype.type(0) if L == 0 else lp.dtype.type(np.inf))
        seqs.append((prime, T, L))
        alphas.append(la)
        nlls.append(nll)
    res = np.asarray(nlls, lp.dtype) if batched else np.asarray(nlls[0], lp.dtype)
    out = result(res, CtcLossBackward0, (log_probs,), (log_probs,), (seqs, alphas, np.asarray(nlls, lp.dtype),
                                                                         blank, zero_infinity))
    return out, tl


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    if type(log_probs) is not Tensor:
        raise TypeError(f"ctc_loss(): argument 'log_probs' (position 1) must be Tensor, not {pytype(log_probs)}")
    if type(targets) is not Tensor:
        raise TypeError(f"ctc_loss(): argument 'targets' (position 2) must be Tensor, not {pytype(targets)}")
    res, tl = _ctc(log_probs, targets, input_lengths, target_lengths, blank, zero_infinity)
    if zero_infinity:
        res = res.where(res != np.inf, _new(np.zeros((), res._a.dtype)))
    if reduction == "mean":
        lengths = _new(np.maximum(np.asarray(tl, res._a.dtype), 1).reshape(res._a.shape))
        return (res / lengths).mean()
    if reduction == "sum":
        return res.sum()
    if reduction == "none":
        return res
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _torch_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    """torch.ctc_loss: reduction as ATen's enum (0 none, 1 mean, 2 sum)."""
    names = {0: "none", 1: "mean", 2: "sum"}
    return ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                    names.get(reduction, reduction), zero_infinity)


declare("ctc_loss", ctc_loss, method=False, torch_forward=_torch_ctc_loss, functional=True, rules=[CtcLossBackward0])
