"""oneDNN's float32 convolution as PyTorch 2.13 runs it on an AVX512 machine, bit for bit.

PyTorch sends a float32 conv1d/conv2d on the CPU to oneDNN (mkldnn: ATen's use_mkldnn holds
for every float32 convolution with more than one thread, and for all but 1x1 kernels on
small batches with one). Measured with ONEDNN_VERBOSE=1 for the shapes learners use (up to
16 input and 16 output channels, one channel block), oneDNN 3.12 picks:

- forward: jit:avx512_core direct convolution. Each output element is one chain of fused
  multiply-adds from 0 over (kh, kw, ic), the bias added after it.
- backward data, stride 1: jit:avx512_core, one chain from 0 over (kh, kw, oc).
  Stride > 1: brgconv_strided:avx512_core, the same chain when the input width is not a
  multiple of the stride; when it is, one chain over (kh, oc) per kw, from 0, the partial
  sums added in kw order.
- backward weights and bias, 2 threads: the reduction over (n, oh, ow) is split between the
  threads (each a chain from 0; the two partial results added): over the batch when the
  input has 16 channels or more (jit:avx512_core, blocked layout), over the (n, oh) rows
  when it has 1 to 3 (jit:avx512_core, "first convolution": _chunks); with 4 to 15 input
  channels oneDNN takes jit:avx2: one chain over (n, oh, ow) with more than 8 output
  channels (the threads take 8 each), else split over the batch. One thread: one chain.

fma_gemm holds the chains: the optional C module computes them with fmaf, the NumPy code
with rounding.fma32 (the reference, and the fallback).
"""
import numpy as np

from gradrepl.engine import cpu
from gradrepl.engine.rounding import fma32
from gradrepl.engine.summation import THREADS

try:
    from gradrepl.engine import _kernels as _C
except ImportError:     # not built: the NumPy code below
    _C = None

f32 = np.float32
MAX_CHANNELS = 16       # one channel block: the shapes measured


def fma_gemm(a, bt, c):
    """c[i, j] = fma(a[i, K-1], bt[j, K-1], ... fma(a[i, 0], bt[j, 0], c[i, j])) in float32."""
    m, k = a.shape
    n = bt.shape[0]
    if _C is not None and hasattr(_C, "fma_gemm"):
        # the C loops run the chains of adjacent rows of a (of bt when it has more) in
        # vector lanes: that operand goes in transposed (a transpose view costs nothing)
        if m >= n:
            out = np.array(c.T, f32, order="C")
            if not _C.fma_gemm(m, n, k, np.ascontiguousarray(a.T, f32), np.ascontiguousarray(bt, f32), out):
                return out.T
        else:
            out = np.array(c, f32, order="C")
            if not _C.fma_gemm(n, m, k, np.ascontiguousarray(bt.T, f32), np.ascontiguousarray(a, f32), out):
                return out
    return fma_gemm_np(np.asarray(a, f32), np.asarray(bt, f32), np.asarray(c, f32))


def fma_gemm_np(a, bt, c):
    for t in range(a.shape[1]):
        c = fma32(a[:, t, None], bt[None, :, t], c)
    return c


def uses_mkldnn(x, w, stride, dilation, groups):
    """ATen's ConvParams::use_mkldnn for a float32 CPU input (x batched; a 1-d convolution
    is viewed as a 2-d one with height 1 first)."""
    k = w.shape[2:] if w.ndim == 4 else (1,) + w.shape[2:]
    n = x.shape[0]
    return ((any(s != 1 for s in stride) or any(d != 1 for d in dilation) or n >= 16
             or k != (1, 1) or THREADS["n"] > 1)
            and (groups > 1 or (k[0] > 3 and k[1] > 3) or n > 1 or x.size > 20480))


def applies(x, w, stride, padding, dilation, groups):
    """Whether PyTorch runs oneDNN here with an algorithm measured to the bit (else the
    caller computes as before: correctly rounded sums, not always PyTorch's last bits)."""
    n = w.ndim - 2
    if not (x.dtype == f32 and w.dtype == f32 and n in (1, 2) and groups == 1
            and all(d == 1 for d in dilation) and len(set(stride)) == 1
            and w.shape[0] <= MAX_CHANNELS and w.shape[1] <= MAX_CHANNELS
            and x.size > 0 and cpu.capability() == "avx512" and THREADS["n"] in (1, 2)):
        return False
    return uses_mkldnn(x, w, stride, dilation, groups)


def _as2d(a, n):
    return a[:, :, None] if n == 1 else a


def _windows(x, kh, kw, s, p):
    """(N, C, KH, KW, OH, OW): the zero-padded input each kernel offset meets."""
    n, c, h, w = x.shape
    xp = np.pad(x, [(0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])])
    oh, ow = (h + 2 * p[0] - kh) // s + 1, (w + 2 * p[1] - kw) // s + 1
    out = np.empty((n, c, kh, kw, oh, ow), f32)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i, j] = xp[:, :, i:i + (oh - 1) * s + 1:s, j:j + (ow - 1) * s + 1:s]
    return out


def forward(x, w, b, stride, padding):
    """conv (N, C, *spatial) float32; w (O, C, *kernel); b (O,) or None."""
    nd = w.ndim - 2
    x4, w4 = _as2d(x, nd), _as2d(w, nd)
    p = (0, padding[0]) if nd == 1 else tuple(padding)
    s = stride[0]
    o, c, kh, kw = w4.shape
    bt = w4.transpose(0, 2, 3, 1).reshape(o, kh * kw * c)
    parts = []
    for i, j in _groups(x4.shape[0], x4[0].size * kh * kw):
        cols = _windows(x4[i:j], kh, kw, s, p)              # N, C, KH, KW, OH, OW
        n, _, _, _, oh, ow = cols.shape
        at = cols.transpose(2, 3, 1, 0, 4, 5).reshape(kh * kw * c, n * oh * ow)
        out = fma_gemm(at.T, bt, np.zeros((n * oh * ow, o), f32))
        if b is not None:
            out = out + b.astype(f32)
        parts.append(out.reshape(n, oh, ow, o).transpose(0, 3, 1, 2))
    out = parts[0] if len(parts) == 1 else np.concatenate(parts)
    return np.ascontiguousarray(out[:, :, 0] if nd == 1 else out)


_BLOCK = 1 << 21     # floats of gathered operands at a time (images in groups, for the caches)


def _groups(n, per_image):
    step = max(1, _BLOCK // max(1, per_image))
    return [(i, min(n, i + step)) for i in range(0, n, step)]


def backward_data(g, w, xshape, stride, padding):
    """d input of conv: g (N, O, *out)."""
    nd = w.ndim - 2
    g4, w4 = _as2d(g, nd), _as2d(w, nd)
    p = (0, padding[0]) if nd == 1 else tuple(padding)
    s = stride[0]
    n, c = xshape[:2]
    h, wd = (1, xshape[2]) if nd == 1 else xshape[2:]
    o, _, kh, kw = w4.shape
    parts = [_backward_data(g4[a:b], w4, (b - a, c, h, wd), s, p)
             for a, b in _groups(n, h * wd * kh * kw * o)]
    out = parts[0] if len(parts) == 1 else np.concatenate(parts)
    return np.ascontiguousarray(out[:, :, 0] if nd == 1 else out)


def _backward_data(g4, w4, xshape, s, p):
    n, c, h, wd = xshape
    o, _, kh, kw = w4.shape
    oh, ow = g4.shape[2:]
    # at[kw, kh, o, (n, ih, iw)] = g[n, o, oh, ow] where ih = oh*s - p + kh (likewise iw)
    at = np.zeros((kw, kh, o, n, h, wd), f32)
    gt = g4.transpose(1, 0, 2, 3)
    for i in range(kh):
        hs, he, ohs = _span(i, p[0], s, oh, h)
        if hs is None:
            continue
        for j in range(kw):
            ws, we, ows = _span(j, p[1], s, ow, wd)
            if ws is None:
                continue
            at[j, i, :, :, hs:he:s, ws:we:s] = gt[:, :, ohs[0]:ohs[1], ows[0]:ows[1]]
    wt = w4.transpose(1, 3, 2, 0)                            # C, KW, KH, O
    m = n * h * wd
    if s > 1 and wd % s == 0:     # brgconv_strided: a chain per kw, the partial sums added
        out = None
        for j in range(kw):
            part = fma_gemm(at[j].reshape(kh * o, m).T, wt[:, j].reshape(c, kh * o), np.zeros((m, c), f32))
            out = part if out is None else out + part
    else:                          # the chain over (kh, kw, o)
        at = at.transpose(1, 0, 2, 3, 4, 5).reshape(kh * kw * o, m)
        out = fma_gemm(at.T, wt.transpose(0, 2, 1, 3).reshape(c, kh * kw * o), np.zeros((m, c), f32))
    return out.reshape(n, h, wd, c).transpose(0, 3, 1, 2)


def _span(k, pad, s, out, size):
    """The input positions ih = oh*s - pad + k in [0, size) for oh in [0, out): their slice
    bounds and the oh range (None when there are none)."""
    first = 0
    while first < out and first * s - pad + k < 0:
        first += 1
    last = out
    while last > first and (last - 1) * s - pad + k >= size:
        last -= 1
    if first >= last:
        return None, None, None
    start = first * s - pad + k
    return start, (last - 1) * s - pad + k + 1, (first, last)


def _chunks(n, oh, ow, cin, cout):
    """The threads' parts of the reduction over (n, oh, ow), as index ranges: whole images
    (blocked layout, and jit:avx2 with up to 8 output channels), or with 1 to 3 input channels units of half an image (the first
    half the longer) once the images have 10 rows or more (18 for a batch of one), whole
    images below (measured for 4 to 30 rows and batches of 1 to 7)."""
    total = n * oh * ow
    if THREADS["n"] == 1 or (4 <= cin < 16 and cout > 8):    # jit:avx2: a thread per 8 channels
        return [(0, total)]
    halves = cin < 4 and oh >= (18 if n == 1 else 10)
    bounds = [0, (oh + 1) // 2, oh] if halves else [0, oh]
    units = [(i * oh + bounds[b]) * ow for i in range(n) for b in range(len(bounds) - 1)] + [total]
    parts = []
    for tid in range(2):
        start, end = _balance211(len(units) - 1, 2, tid)
        if end > start:
            parts.append((units[start], units[end]))
    return parts


def _balance211(n, team, tid):
    n1 = -(-n // team)
    n2 = n1 - 1
    t1 = n - n2 * team
    start = tid * n1 if tid <= t1 else t1 * n1 + (tid - t1) * n2
    return start, start + (n1 if tid < t1 else n2)


def backward_weights(g, x, wshape, stride, padding, bias):
    """(d weight, d bias or None) of conv: g (N, O, *out), x the input."""
    nd = len(wshape) - 2
    g4, x4 = _as2d(g, nd), _as2d(x, nd)
    p = (0, padding[0]) if nd == 1 else tuple(padding)
    s = stride[0]
    o, c = wshape[:2]
    kh, kw = (1, wshape[2]) if nd == 1 else wshape[2:]
    cols = _windows(x4, kh, kw, s, p)                       # N, C, KH, KW, OH, OW
    n, _, _, _, oh, ow = cols.shape
    colsk = cols.transpose(0, 4, 5, 1, 2, 3).reshape(n * oh * ow, c * kh * kw)
    a = g4.transpose(1, 0, 2, 3).reshape(o, n * oh * ow)
    gw = gb = None
    ones = np.ones((1, n * oh * ow), f32)
    for start, end in _chunks(n, oh, ow, c, o):
        part = fma_gemm(a[:, start:end], colsk[start:end].T, np.zeros((o, c * kh * kw), f32))
        gw = part if gw is None else gw + part
        if bias:
            pb = fma_gemm(a[:, start:end], ones[:, start:end], np.zeros((o, 1), f32))
            gb = pb if gb is None else gb + pb
    return gw.reshape(wshape), (gb.reshape(o) if bias else None)
