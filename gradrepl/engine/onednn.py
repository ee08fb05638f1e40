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

On an AVX2 machine (ATen's capability, engine/cpu.py) oneDNN takes jit:avx2 throughout, with
blocks of 8 channels (measured on an AMD EPYC with AVX2, 2 threads, up to 64 channels):

- forward: one chain per output element starting from the bias (from 0 without one) over
  (input channel block, kh, kw, channel in the block).
- backward data, stride 1: the output channels in groups of 1, 2 or 4 blocks of 8 by the
  output width (_bd_group_avx2); a chain from 0 over (block, kh, kw, channel) per group, the
  groups' sums added. Stride > 1: brgconv_strided:avx2, as on AVX512.
- backward weights and bias: a chain over (n, oh, ow) per thread; oneDNN's reduction
  balancer (_reducer_split) decides whether the two threads split the images or take
  separate blocks of channels (each weight then one chain).
- 1x1 kernels (jit_1x1:avx2): the forward as above; d input one chain over all output
  channels (stride 2: brgconv_strided); d bias as above; d weight not emulated.
- depthwise (groups = channels, one output channel each; jit_dw:avx2): dw_* below.
- 4x4 kernels: as 3x3 and 5x5 (measured). 2 or 4 groups of 8 or 16 channels: group_*.
- transposed convolutions (oneDNN's deconvolution) run these with data and output swapped;
  their bias gradient: deconv_bias_grad.

A batch of one that use_mkldnn turns away (few values, a kernel under 4x4) runs ATen's
slow_conv2d instead: slow_forward / slow_backward at the end of this module.

fma_gemm holds the chains: the optional C module computes them with fmaf, the NumPy code
with rounding.fma32 (the reference, and the fallback).
"""
import numpy as np

from gradrepl.engine import cpu, mkl
from gradrepl.engine.rounding import fma32
from gradrepl.engine.summation import THREADS
from gradrepl.engine.tensor import _new

try:
    from gradrepl.engine import _kernels as _C
except ImportError:     # not built: the NumPy code below
    _C = None

f32 = np.float32
MAX_CHANNELS = 64       # the shapes measured
BLOCK = 16              # oneDNN's channel block (AVX512: 16 float32 lanes)
BLOCK_AVX2 = 8          # jit:avx2's (8 lanes)


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
    kernel = w.shape[2:]
    cap = cpu.capability()
    if groups > 1 and not _depthwise(x, w, groups):     # jit:avx2 per group, measured on AVX2
        if not (cap == "avx2" and n == 2 and x.dtype == f32 and w.dtype == f32 and groups in (2, 4)
                and w.shape[1] in (8, 16) and w.shape[0] // groups in (8, 16)
                and all(d == 1 for d in dilation) and len(set(stride)) == 1 and stride[0] in (1, 2)
                and kernel[0] == kernel[1] and kernel[0] in (3, 5) and all(p <= (kernel[0] - 1) // 2 for p in padding)
                and x.size > 0 and THREADS["n"] in (1, 2)):
            return False
        return min((x.shape[2 + i] + 2 * padding[i] - kernel[i]) // stride[0] + 1 for i in range(2)) >= 2
    if groups > 1:      # depthwise (jit_dw:avx2), measured on AVX2 for 3x3 and 5x5 kernels
        if not (cap == "avx2" and _depthwise(x, w, groups) and n == 2 and x.dtype == f32 and w.dtype == f32
                and all(d == 1 for d in dilation) and len(set(stride)) == 1 and stride[0] in (1, 2)
                and kernel[0] == kernel[1] and kernel[0] in (3, 5) and all(p <= (kernel[0] - 1) // 2 for p in padding)
                and w.shape[0] <= MAX_CHANNELS and x.size > 0 and THREADS["n"] in (1, 2)):
            return False
        return min((x.shape[2 + i] + 2 * padding[i] - kernel[i]) // stride[0] + 1 for i in range(2)) >= 2
    if not (x.dtype == f32 and w.dtype == f32 and n in (1, 2) and groups == 1
            and all(d == 1 for d in dilation) and len(set(stride)) == 1 and stride[0] in (1, 2)
            and (all(k in (3, 5, 7) for k in kernel) or (cap == "avx2" and (all(k == 1 for k in kernel)
                                                                              or all(k == 4 for k in kernel))))
            and all(p <= (k - 1) // 2 for p, k in zip(padding, kernel))
            and w.shape[0] <= MAX_CHANNELS and w.shape[1] <= MAX_CHANNELS
            # jit:avx2's weight gradient on AVX512 (4 to 15 input channels): measured up to
            # 16 output channels, and in 1-d above 8
            and not (cap == "avx512" and 4 <= w.shape[1] < 16 and (w.shape[0] > 16 or (n == 1 and w.shape[0] <= 8)))
            and x.size > 0 and cap in ("avx512", "avx2") and THREADS["n"] in (1, 2)):
        return False
    out = [(x.shape[2 + i] + 2 * padding[i] - kernel[i]) // stride[0] + 1 for i in range(n)]
    if min(out) < 2:
        return False
    return uses_mkldnn(x, w, stride, dilation, groups) or (x.shape[0] == 1 and bool(mkl.lib()))


def data_measured(x, w, stride):
    """brgconv_strided's d input splits its work between the threads otherwise for a batch
    of 1 or 3 with 1 or 2 input channels on AVX512 (not emulated: the caller rounds float64
    sums). On AVX2 it blocks the width in two for some odd batches (3 always, except for
    some widths and channel counts; 5 and 7 with 16 or more input channels, not always): the
    left half then takes the chain over (kh, kw, o), the right half the chains per kw. When
    is not pinned down; the chains per kw everywhere miss the left half's odd columns only
    (float64 sums miss most values), so AVX2 keeps them."""
    if stride[0] == 1 or cpu.capability() == "avx2":
        return True
    return not (x.shape[0] in (1, 3) and w.shape[1] <= 2 and not _slow(x, w, stride, (1,), 1))


def weight_measured(w, groups=1):
    """jit_1x1:avx2's weight gradient (a 1x1 kernel on AVX2), and jit_dw:avx2's with a 5x5
    kernel, reduce the images and positions in pieces not pinned down yet (not emulated: the
    caller rounds float64 sums; their output, d input and d bias are measured)."""
    if cpu.capability() != "avx2":
        return True
    return not (all(k == 1 for k in w.shape[2:]) or (groups > 1 and w.shape[2] != 3))


def _depthwise(x, w, groups):
    """A depthwise convolution: a group per channel, one output channel each."""
    return groups == x.shape[1] == w.shape[0] and w.shape[1] == 1


# ------------------------------------------------------------ grouped (not depthwise), AVX2
# 2 or 4 groups of 8 or 16 channels (jit:avx2 per group): the output and d input as the
# convolution of each group (d input with stride 2 and one block of 8 output channels per
# group: one chain over (kh, kw, channel), never split by kw); the weight and bias gradients
# as above, the reduction balancer counting every group's channel blocks as jobs.

def group_forward(x, w, b, stride, padding, groups):
    cg, og = x.shape[1] // groups, w.shape[0] // groups
    return np.concatenate([forward(x[:, i * cg:(i + 1) * cg], w[i * og:(i + 1) * og],
                                   None if b is None else b[i * og:(i + 1) * og], stride, padding)
                           for i in range(groups)], axis=1)


def group_backward(g, x, w, stride, padding, groups, mask):
    """(d input, d weight, d bias) for the outputs in mask."""
    n = x.shape[0]
    cg, og = x.shape[1] // groups, w.shape[0] // groups
    kh, kw = w.shape[2:]
    s, p = stride[0], tuple(padding)
    gx = gw = gb = None
    if mask[0]:
        xs = (n, cg) + x.shape[2:]
        parts = []
        for i in range(groups):
            gi, wi = g[:, i * og:(i + 1) * og], w[i * og:(i + 1) * og]
            parts.append(_backward_data(gi, wi, xs, 1, p, None, s) if s > 1 and og == BLOCK_AVX2
                         else backward_data(gi, wi, xs, stride, padding))
        gx = np.ascontiguousarray(np.concatenate(parts, axis=1))
    if mask[1] or mask[2]:
        oh, ow = g.shape[2:]
        threads = THREADS["n"]
        nb_oc = _div_up(og, BLOCK_AVX2)
        nb_ic, ic_block = (_div_up(cg, BLOCK_AVX2), BLOCK_AVX2)

        def parts(per_group):
            if threads == 1 or per_group == 1:
                return [(0, n * oh * ow)]
            return [(a * oh * ow, b * oh * ow) for a, b in (_balance211(n, per_group, t) for t in range(per_group))
                    if b > a]

        weight_parts = parts(_reducer_split(groups * nb_oc * nb_ic, kh * kw * ic_block * BLOCK_AVX2, n, threads)[1])
        bias_parts = parts(_reducer_split(groups * nb_oc, BLOCK_AVX2, n, threads)[1])
        ones = np.ones((1, n * oh * ow), f32)
        gws, gbs = [], []
        for i in range(groups):
            cols = _windows(x[:, i * cg:(i + 1) * cg], kh, kw, s, p)
            colsk = cols.transpose(0, 4, 5, 1, 2, 3).reshape(n * oh * ow, cg * kh * kw)
            a = g[:, i * og:(i + 1) * og].transpose(1, 0, 2, 3).reshape(og, n * oh * ow)
            acc = None
            for lo, hi in weight_parts:
                part = fma_gemm(a[:, lo:hi], colsk[lo:hi].T, np.zeros((og, cg * kh * kw), f32))
                acc = part if acc is None else acc + part
            gws.append(acc)
            acc = None
            for lo, hi in bias_parts:
                part = fma_gemm(a[:, lo:hi], ones[:, lo:hi], np.zeros((og, 1), f32))
                acc = part if acc is None else acc + part
            gbs.append(acc[:, 0])
        gw = np.concatenate(gws).reshape(w.shape) if mask[1] else None
        gb = np.concatenate(gbs) if mask[2] else None
    return gx, gw, gb


# ------------------------------------------------------------ jit_dw:avx2 (depthwise, AVX2)
# forward: a chain per output element from the bias over (kh, kw); d input: from 0 over
# (kh, kw); d weight (3x3) and d bias: a chain over (n, oh, ow) per channel, the two threads
# splitting the images when there is one block of 8 channels (else each takes its blocks);
# d bias with a 5x5 kernel: a chain per output row, the rows' sums added in order.

def dw_forward(x, w, b, stride, padding):
    kh, kw = w.shape[2:]
    cols = _windows(x, kh, kw, stride[0], tuple(padding))        # N, C, KH, KW, OH, OW
    n, c, _, _, oh, ow = cols.shape
    acc = np.zeros((n, c, oh, ow), f32)
    if b is not None:
        acc[:] = b.astype(f32)[None, :, None, None]
    wf = w.astype(f32)
    for i in range(kh):
        for j in range(kw):
            acc = fma32(cols[:, :, i, j], wf[None, :, 0, i, j, None, None], acc)
    return acc


def dw_backward_data(g, w, xshape, stride, padding):
    n, c, h, wd = xshape
    kh, kw = w.shape[2:]
    s = stride[0]
    oh, ow = g.shape[2:]
    acc = np.zeros(xshape, f32)
    wf = w.astype(f32)
    for i, j, src, dst in _taps(kh, kw, padding, s, (oh, ow), (h, wd)):
        tap = np.zeros(xshape, f32)
        tap[(Ellipsis,) + src] = g[(Ellipsis,) + dst]
        acc = fma32(tap, wf[None, :, 0, i, j, None, None], acc)
    return acc


def dw_backward_weights(g, x, wshape, stride, padding, bias):
    c, _, kh, kw = wshape
    cols = _windows(x, kh, kw, stride[0], tuple(padding))        # N, C, KH, KW, OH, OW
    n, _, _, _, oh, ow = cols.shape
    a = np.ascontiguousarray(cols.transpose(1, 2, 3, 0, 4, 5).reshape(c, kh * kw, n * oh * ow))
    gt = np.ascontiguousarray(g.astype(f32).transpose(1, 0, 2, 3).reshape(c, n * oh * ow))
    total = n * oh * ow
    parts = [(0, total)]
    if THREADS["n"] > 1 and _div_up(c, BLOCK_AVX2) == 1:
        parts = [(lo * oh * ow, hi * oh * ow) for lo, hi in (_balance211(n, 2, t) for t in range(2)) if hi > lo]
    gw = np.empty((c, kh * kw), f32)
    for ch in range(c):
        acc = None
        for lo, hi in parts:
            part = fma_gemm(gt[ch:ch + 1, lo:hi], a[ch, :, lo:hi], np.zeros((1, kh * kw), f32))
            acc = part if acc is None else acc + part
        gw[ch] = acc[0]
    gb = None
    if bias and kh == 3:
        ones = np.ones((1, total), f32)
        for lo, hi in parts:
            part = fma_gemm(gt[:, lo:hi], ones[:, lo:hi], np.zeros((c, 1), f32))[:, 0]
            gb = part if gb is None else gb + part
    elif bias:
        rows = gt.reshape(c, n * oh, ow)
        sums = np.zeros((c, n * oh), f32)
        for t in range(ow):
            sums = sums + rows[:, :, t]
        gb = np.zeros(c, f32)
        for r in range(n * oh):
            gb = gb + sums[:, r]
    return gw.reshape(wshape), gb


def _slow(x, w, stride, dilation, groups):
    """PyTorch runs slow_conv2d (im2col and MKL's sgemm) rather than oneDNN."""
    return not uses_mkldnn(x, w, stride, dilation, groups)


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
    avx2 = cpu.capability() == "avx2"
    parts = []
    for i, j in _groups(x4.shape[0], x4[0].size * kh * kw):
        cols = _windows(x4[i:j], kh, kw, s, p)              # N, C, KH, KW, OH, OW
        n, _, _, _, oh, ow = cols.shape
        if avx2:    # jit:avx2: one chain from the bias over (block of 8, kh, kw, channel)
            blocks = _blocks(c, BLOCK_AVX2)
            at = np.concatenate([cols[:, lo:hi].transpose(2, 3, 1, 0, 4, 5).reshape(-1, n * oh * ow)
                                 for lo, hi in blocks])
            bt = np.concatenate([w4[:, lo:hi].transpose(0, 2, 3, 1).reshape(o, -1) for lo, hi in blocks], axis=1)
            init = np.zeros((n * oh * ow, o), f32)
            if b is not None:
                init[:] = b.astype(f32)
            parts.append(fma_gemm(at.T, bt, init).reshape(n, oh, ow, o).transpose(0, 3, 1, 2))
            continue
        out = None
        for cb in range(0, c, BLOCK):   # a chain per block of 16 input channels
            cs = slice(cb, min(c, cb + BLOCK))
            at = cols[:, cs].transpose(2, 3, 1, 0, 4, 5).reshape(-1, n * oh * ow)
            bt = w4[:, cs].transpose(0, 2, 3, 1).reshape(o, -1)
            part = fma_gemm(at.T, bt, np.zeros((n * oh * ow, o), f32))
            out = part if out is None else out + part
            if cb == 0 and b is not None:        # the bias joins the first block's sums
                out = out + b.astype(f32)
        parts.append(out.reshape(n, oh, ow, o).transpose(0, 3, 1, 2))
    out = parts[0] if len(parts) == 1 else np.concatenate(parts)
    return np.ascontiguousarray(out[:, :, 0] if nd == 1 else out)


_BLOCK = 1 << 21     # floats of gathered operands at a time (images in groups, for the caches)


def _blocks(c, size):
    """[(start, end)] of the channel blocks."""
    return [(lo, min(c, lo + size)) for lo in range(0, c, size)]


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
    # stride 1 (jit:avx512_core): a chain per block of 16 output channels, the sums added;
    # (jit:avx2) a chain per group of blocks of 8, the sums added;
    # brgconv_strided: all channels in its chains
    inner = None
    if s > 1:
        blocks = [(0, o)]
    elif cpu.capability() == "avx2":     # jit_1x1:avx2: one chain over all channels
        group = o if kh == kw == 1 else BLOCK_AVX2 * _bd_group_avx2(g4.shape[3])
        blocks, inner = _blocks(o, group), BLOCK_AVX2
    else:
        blocks = _blocks(o, BLOCK)
    parts = []
    for a, b in _groups(n, h * wd * kh * kw * o):
        part = None
        for lo, hi in blocks:
            d = _backward_data(g4[a:b, lo:hi], w4[lo:hi], (b - a, c, h, wd), s, p, inner)
            part = d if part is None else part + d
        parts.append(part)
    out = parts[0] if len(parts) == 1 else np.concatenate(parts)
    return np.ascontiguousarray(out[:, :, 0] if nd == 1 else out)


def _bd_group_avx2(ow):
    """Blocks of 8 output channels in one chain of jit:avx2's d input (stride 1), by the
    output width: measured for widths 4 to 200 (3x3 to 7x7 kernels, 1 to 32 input and 8 to
    64 output channels), the same for every height, batch and channel count."""
    return 4 if ow < 15 else 2 if ow < 40 else 1


def _backward_data(g4, w4, xshape, s, p, inner=None, stride=None):
    """inner: the chain over (kh, kw, channel) per block of `inner` output channels, the
    blocks one after the other in it (else over (kh, kw, channel)). stride: the stride of a
    single chain over (kh, kw, channel) (s is then 1: no split by kw)."""
    n, c, h, wd = xshape
    t = stride or s
    o, _, kh, kw = w4.shape
    oh, ow = g4.shape[2:]
    # at[kw, kh, o, (n, ih, iw)] = g[n, o, oh, ow] where ih = oh*s - p + kh (likewise iw)
    at = np.zeros((kw, kh, o, n, h, wd), f32)
    gt = g4.transpose(1, 0, 2, 3)
    for i, j, src, dst in _taps(kh, kw, p, t, (oh, ow), (h, wd)):
        at[(j, i, Ellipsis) + src] = gt[(Ellipsis,) + dst]
    wt = w4.transpose(1, 3, 2, 0)                            # C, KW, KH, O
    m = n * h * wd
    if s > 1 and wd % s == 0:     # brgconv_strided: a chain per kw, the partial sums added
        out = None
        for j in range(kw):
            part = fma_gemm(at[j].reshape(kh * o, m).T, wt[:, j].reshape(c, kh * o), np.zeros((m, c), f32))
            out = part if out is None else out + part
    elif inner:                    # the chain over (block, kh, kw, o)
        at = at.transpose(1, 0, 2, 3, 4, 5)
        wt = wt.transpose(0, 2, 1, 3)                        # C, KH, KW, O
        blocks = _blocks(o, inner)
        at = np.concatenate([at[:, :, lo:hi].reshape(-1, m) for lo, hi in blocks])
        wt = np.concatenate([wt[..., lo:hi].reshape(c, -1) for lo, hi in blocks], axis=1)
        out = fma_gemm(at.T, wt, np.zeros((m, c), f32))
    else:                          # the chain over (kh, kw, o)
        at = at.transpose(1, 0, 2, 3, 4, 5).reshape(kh * kw * o, m)
        out = fma_gemm(at.T, wt.transpose(0, 2, 1, 3).reshape(c, kh * kw * o), np.zeros((m, c), f32))
    return out.reshape(n, h, wd, c).transpose(0, 3, 1, 2)


def _taps(kh, kw, pad, s, out_hw, in_hw):
    """Each kernel tap (i, j) that reaches the input, row by row: the input positions it reads
    (strided slices of the last two dims) and the output positions they belong to."""
    for i in range(kh):
        hs, he, ohs = _span(i, pad[0], s, out_hw[0], in_hw[0])
        if hs is None:
            continue
        for j in range(kw):
            ws, we, ows = _span(j, pad[1], s, out_hw[1], in_hw[1])
            if ws is None:
                continue
            yield i, j, (slice(hs, he, s), slice(ws, we, s)), (slice(*ohs), slice(*ows))


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


MIN_OH_REDUCE = 9


def _div_up(a, b):
    return -(-a // b)


def _balance(mb, ih, iw, oh, ow, kh, kw, sh, sw, nb_ic, ic_block, nb_oc, harness2d, nthreads):
    """oneDNN's thread split of jit:avx512_core's weight gradient (its balance()): threads
    over the reduction (nthr_mb), the output and the input channel blocks."""
    ih_reduce, oh_reduce = (ih, oh) if harness2d else (1, 1)
    ih_no, oh_no = (1, 1) if harness2d else (ih, oh)
    nthr_oh_reduce = max(1, oh_reduce // MIN_OH_REDUCE)

    def mem(nmb, noc, nic):
        return (_div_up(mb * ih_reduce, nmb) * _div_up(nb_ic, nic) * ic_block * ih_no * iw // sh // sw
                + _div_up(mb * oh_reduce, nmb) * _div_up(nb_oc, noc) * BLOCK * oh_no * ow
                + 8 * _div_up(nb_oc, noc) * _div_up(nb_ic, nic) * kh * kw * ic_block * BLOCK)

    def comp(nmb, noc, nic):
        return _div_up(mb * oh_reduce, nmb) * _div_up(nb_oc, noc) * _div_up(nb_ic, nic)

    def options():
        for nmb in range(1, min(nthreads, mb * nthr_oh_reduce) + 1):
            par = nthreads // nmb
            for noc in range(1, min(par, nb_oc) + 1):
                yield nmb, noc, min(par // noc, nb_ic)

    best = (1, 1, 1)
    best_mem = mem(*best)
    for opt in options():
        cost = mem(*opt)
        if cost <= best_mem:
            best_mem, best = cost, opt
    best_comp = comp(*best)
    for opt in options():
        cost, c = mem(*opt), comp(*opt)
        if (c <= best_comp and cost < 1.1 * best_mem) or 4 * c <= 3 * best_comp:
            best_comp, best = c, opt
    nmb, noc, nic = best
    if nthreads // 2 < nmb < nthreads:
        nmb = min(mb * nthr_oh_reduce, nthreads)
    return nmb, noc, nic


def _chunks(n, ih, iw, oh, ow, kh, kw, s, cin, cout):
    """The threads' parts of the reduction over (n, oh, ow) for the weight and for the bias,
    as lists of index ranges. jit:avx512_core (1 to 3 or 16 and more input channels):
    balance()'s split, over the images or, when the output has more than 9 rows, over the
    (image, row) pairs; a bias whose weight is split over input channel blocks is split
    over the images between those threads (with the images' reduction only). jit:avx2 (4 to 15 input channels): a thread per
    8 output channels (or, for the weight, of 8 input channels), else over the images."""
    total = n * oh * ow
    threads = THREADS["n"]
    whole = [(0, total)]
    if threads == 1:
        return whole, whole

    def split(units, size):
        parts = []
        for tid in range(threads):
            start, end = _balance211(units, threads, tid)
            if end > start:
                parts.append((start * size, end * size))
        return parts

    if 4 <= cin < 16:
        if cout > 8:                    # the threads take blocks of 8 output channels
            return whole, whole
        images = split(n, oh * ow)
        return (whole if cin > 8 else images), images     # or blocks of 8 input channels
    harness2d = oh > MIN_OH_REDUCE
    first = cin < 4
    nb_ic, ic_block = (1, cin) if first else (_div_up(cin, BLOCK), BLOCK)
    nmb, _, nic = _balance(n, ih, iw, oh, ow, kh, kw, s, s, nb_ic, ic_block, _div_up(cout, BLOCK), harness2d,
                           threads)
    units, size = (n * oh, ow) if harness2d else (n, oh * ow)
    if nmb > 1:
        parts = split(units, size)
        # measured: with 1 to 3 input channels, the images' reduction and more than one
        # block of output channels, the bias is one chain
        return parts, (whole if first and not harness2d and cout > BLOCK else parts)
    return whole, (split(units, size) if nic > 1 and not harness2d else whole)


# jit:avx2's reduction scratch: at most this many floats per thread (job groups whose
# partial results would not fit keep one thread)
_AVX2_BUFFER = 3 * 5 * 5 * 16 * 16


def _reducer_split(njobs, job_size, reduction, threads):
    """How oneDNN's reduction balancer (jit:avx2's weight and bias gradients) shares `njobs`
    independent jobs (blocks of channels, `job_size` values each) reduced over `reduction`
    images between the threads: (groups of jobs, threads per group). Its cost model: the
    values one thread computes, plus one more pass when a group's threads split the images."""
    fewest = max(1, njobs // threads)
    most = max(1, _AVX2_BUFFER * threads // (threads * job_size))
    groups = min(njobs // fewest, threads)
    per_group = min(threads // groups, reduction)
    best = njobs * job_size * reduction
    for jobs in range(fewest, njobs):
        g = min(njobs // jobs, threads)
        t = min(threads // g, reduction)
        ub = _div_up(njobs, g)
        if t > 1 and ub > most:
            continue
        cost = job_size * ub * (_div_up(reduction, t) + (t != 1))
        if cost < best:
            groups, per_group, best = g, t, cost
    return groups, per_group


def _chunks_avx2(n, oh, ow, kh, kw, cin, cout):
    """jit:avx2's parts of the reduction over (n, oh, ow) on an AVX2 machine (weight, bias):
    a group's threads split the images (balance211), each a chain over (n, oh, ow)."""
    threads = THREADS["n"]
    total = n * oh * ow
    whole = [(0, total)]
    if threads == 1:
        return whole, whole
    nb_oc = _div_up(cout, BLOCK_AVX2)
    nb_ic, ic_block = (_div_up(cin, BLOCK_AVX2), BLOCK_AVX2) if cin >= BLOCK_AVX2 else (1, cin)

    def parts(per_group):
        if per_group == 1:
            return whole
        out = []
        for tid in range(per_group):
            start, end = _balance211(n, per_group, tid)
            if end > start:
                out.append((start * oh * ow, end * oh * ow))
        return out

    weight = _reducer_split(nb_oc * nb_ic, kh * kw * ic_block * BLOCK_AVX2, n, threads)[1]
    bias = _reducer_split(nb_oc, BLOCK_AVX2, n, threads)[1]
    return parts(weight), parts(bias)


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
    ih, iw = x4.shape[2:]
    if cpu.capability() == "avx2":
        weight_parts, bias_parts = _chunks_avx2(n, oh, ow, kh, kw, c, o)
    else:
        weight_parts, bias_parts = _chunks(n, ih, iw, oh, ow, kh, kw, s, c, o)
    for start, end in weight_parts:
        part = fma_gemm(a[:, start:end], colsk[start:end].T, np.zeros((o, c * kh * kw), f32))
        gw = part if gw is None else gw + part
    if bias:
        ones = np.ones((1, n * oh * ow), f32)
        for start, end in bias_parts:
            pb = fma_gemm(a[:, start:end], ones[:, start:end], np.zeros((o, 1), f32))
            gb = pb if gb is None else gb + pb
    return gw.reshape(wshape), (gb.reshape(o) if bias else None)


# ------------------------------------------------ transposed convolution's bias gradient
# oneDNN runs a deconvolution as the convolution with the roles of its data and output
# swapped (forward: the convolution's d input; d input: the forward; d weight: the weight
# gradient of the swapped pair), all measured above; its bias gradient comes from its own
# reference loop. Measured on AVX2 (2-d, batches 1 to 64, 1 to 64 channels, 1 and 2 threads).

def deconv_bias_measured(g, nd):
    return cpu.capability() == "avx2" and g.dtype == f32 and nd in (1, 2) and g.size > 0


def deconv_bias_grad(g, slow, w, groups):
    """d bias of conv_transpose1d/2d: g (N, C, *spatial), w its weight. ATen's slow path:
    its sum over all dims but 1; oneDNN: per channel a float32 sum over (image, position) in
    order; in a plain layout (3 channels: jit:avx2's flat one; a 5x5 depthwise one, whose
    weight gradient runs x64:gemm:jit) a sum per image, the images' sums then added in order."""
    n, c = g.shape[:2]
    if slow:
        return _new(np.ascontiguousarray(g)).sum((0, *range(2, g.ndim)))._a
    a = np.ascontiguousarray(np.moveaxis(g, 1, 0), f32).reshape(c, n, -1)
    if c == 3 or (groups > 1 and groups == w.shape[0] == c and w.shape[1] == 1 and w.shape[2] != 3):
        per_image = np.cumsum(a, axis=2, dtype=f32)[:, :, -1]
        return np.ascontiguousarray(np.cumsum(per_image, axis=1, dtype=f32)[:, -1])
    return np.ascontiguousarray(np.cumsum(a.reshape(c, -1), axis=1, dtype=f32)[:, -1])


# ---------------------------------------------------------------- slow_conv2d (one image)
# ATen's ConvolutionMM2d.cpp for a batch of one that use_mkldnn turns away: the input
# unfolded (im2col, rows (c, kh, kw)), the products by MKL's sgemm with the column-major
# arguments ATen passes (cpublas::gemm), d input accumulated back (unfolded2d_acc: row by
# row, float32 adds), d bias the row sums of the output gradient.
_NT, _T = 111, 112


def _gemm(ta, tb, m, n, k, a, lda, b, ldb, beta, c, ldc):
    lib = mkl.lib()
    lda, ldb, ldc = mkl._normalize_last_dims(ta, tb, m, n, k, lda, ldb, ldc)
    lib.cblas_sgemm(102, _T if ta else _NT, _T if tb else _NT, m, n, k, 1.0, a.ctypes.data, lda,
                    b.ctypes.data, ldb, beta, c.ctypes.data, ldc)


def _unfold(x, kh, kw, s, p):
    """(C*KH*KW, OH*OW) of one image (C, H, W), zero outside."""
    cols = _windows(x[None], kh, kw, s, p)[0]
    return np.ascontiguousarray(cols.reshape(-1, cols.shape[-2] * cols.shape[-1]))


def slow_forward(x, w, b, stride, padding):
    nd = w.ndim - 2
    x4, w4 = _as2d(x, nd), _as2d(w, nd)
    p = (0, padding[0]) if nd == 1 else tuple(padding)
    o, c, kh, kw = w4.shape
    fin = _unfold(np.ascontiguousarray(x4[0], f32), kh, kw, stride[0], p)
    k, m = fin.shape
    out = np.zeros((o, m), f32)
    if b is not None:
        out[:] = b.astype(f32)[:, None]
    w2 = np.ascontiguousarray(w4.reshape(o, k), f32)
    _gemm(False, False, m, o, k, fin, m, w2, k, 0.0 if b is None else 1.0, out, m)
    oh = (x4.shape[2] + 2 * p[0] - kh) // stride[0] + 1
    out = out.reshape(1, o, oh, m // oh)
    return out[:, :, 0] if nd == 1 else out


def slow_backward(g, x, w, stride, padding, mask):
    nd = w.ndim - 2
    g4, x4, w4 = _as2d(g, nd), _as2d(x, nd), _as2d(w, nd)
    p = (0, padding[0]) if nd == 1 else tuple(padding)
    s = stride[0]
    o, c, kh, kw = w4.shape
    _, _, h, wd = x4.shape
    oh, ow = g4.shape[2:]
    m, k = oh * ow, c * kh * kw
    gt = np.ascontiguousarray(g4[0].reshape(o, m), f32)
    w2 = np.ascontiguousarray(w4.reshape(o, k), f32)
    gx = gw = gb = None
    if mask[0]:
        fg = np.zeros((k, m), f32)
        _gemm(False, True, m, k, o, gt, m, w2, k, 0.0, fg, m)
        fg = fg.reshape(c, kh, kw, oh, ow)
        acc = np.zeros((c, h + 2 * p[0], wd + 2 * p[1]), f32)
        for i in range(kh):
            for j in range(kw):
                acc[:, i:i + (oh - 1) * s + 1:s, j:j + (ow - 1) * s + 1:s] += fg[:, i, j]
        gx = acc[None, :, p[0]:p[0] + h, p[1]:p[1] + wd]
        gx = np.ascontiguousarray(gx[:, :, 0] if nd == 1 else gx)
    if mask[1]:
        fin = _unfold(np.ascontiguousarray(x4[0], f32), kh, kw, s, p)
        out = np.zeros((o, k), f32)
        _gemm(True, False, k, o, m, fin, m, gt, m, 1.0, out, k)
        gw = out.reshape(w.shape)
    if mask[2]:
        gb = _new(gt).sum(1)._a
    return gx, gw, gb
