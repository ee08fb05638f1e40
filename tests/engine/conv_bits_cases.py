"""The convolution and pooling cases of tests/engine/test_conv_bits.py, shared with the
script that records PyTorch's answers (scripts/record_conv_bits_golden.py): each case builds
float32 inputs from a fixed seed and calls `torch` (real PyTorch, or gradrepl's namespace).
The shapes are the ones of the published CNN tutorials (nn_tutorial's Mnist_CNN, the 60
minute blitz's Net, d2l's LeNet) and a few 1-d ones. No torch import here."""
import numpy as np

# name: (conv dims, in channels, out channels, input size, kernel, stride, padding)
CONVS = {
    "mnist1": (2, 1, 16, 28, 3, 2, 1),
    "mnist2": (2, 16, 16, 14, 3, 2, 1),
    "mnist3": (2, 16, 10, 7, 3, 2, 1),
    "blitz1": (2, 1, 6, 32, 5, 1, 0),
    "blitz1rgb": (2, 3, 6, 32, 5, 1, 0),
    "blitz2": (2, 6, 16, 14, 5, 1, 0),
    "lenet1": (2, 1, 6, 28, 5, 1, 2),
    "lenet2": (2, 6, 16, 14, 5, 1, 0),
    "odd": (2, 3, 5, 9, 3, 1, 1),
    "conv1d": (1, 1, 4, 20, 3, 1, 1),
    "conv1d_wide": (1, 8, 16, 17, 3, 1, 0),
    # more than one block of 16 channels
    "cifar1": (2, 3, 32, 32, 3, 1, 1),
    "cifar2": (2, 32, 64, 16, 3, 1, 1),
    "deep": (2, 64, 16, 8, 3, 1, 0),
    "mixed": (2, 20, 24, 10, 3, 1, 1),
    "strided32": (2, 16, 32, 16, 3, 2, 1),
    "conv1d_64": (1, 32, 64, 50, 5, 1, 2),
}
WIDE = {"cifar1", "cifar2", "deep", "mixed", "strided32", "conv1d_64"}
BATCHES = [2, 4, 5, 16, 64]
# another oneDNN loop (a thread split of brgconv_strided's backward data at a batch of 3
# with 1 or 2 channels and an even width on AVX512; the width blocked in two for some odd
# batches on AVX2): not emulated yet, per capability. A batch of one with few values and a
# small kernel goes to ATen's slow_conv2d (im2col and MKL's sgemm).
GAPS = {"AVX512": {("mnist1", 3)}, "AVX2": {("mnist1", 3), ("strided32", 5)}}
EXTRA = [("mnist1", 1), ("mnist2", 1), ("mnist3", 1), ("blitz1", 1), ("lenet1", 1), ("blitz2", 1),
         ("conv1d", 1), ("conv1d_wide", 1), ("mnist1", 3)]


# 1x1 kernels (network-in-network, bottlenecks): recorded on AVX2 only (jit_1x1:avx2; its
# weight gradient is not emulated, the test skips it)
ONE_BY_ONE = {
    "nin": (2, 16, 32, 8, 1, 1, 0),
    "nin_s2": (2, 16, 32, 8, 1, 2, 0),
    "nin_rgb": (2, 3, 24, 12, 1, 1, 0),
    "conv1d_1x1": (1, 8, 24, 30, 1, 1, 0),
}


# depthwise (groups = channels): recorded on AVX2 only (jit_dw:avx2; its 5x5 weight
# gradient is not emulated, the test skips it)
DEPTHWISE = {
    "dw3": (2, 16, 16, 14, 3, 1, 1),
    "dw3s2": (2, 32, 32, 16, 3, 2, 1),
    "dw3_rgb": (2, 3, 3, 20, 3, 1, 1),
    "dw5": (2, 8, 8, 12, 5, 1, 2),
}


# 4x4 kernels (DCGAN discriminators) and transposed convolutions (DCGAN generators,
# autoencoder decoders): recorded on AVX2 only. Transposed: (dims, in channels, out
# channels, input size, kernel, stride, padding, output_padding).
KERNEL4 = {
    "disc_rgb": (2, 3, 16, 32, 4, 2, 1),
    "disc2": (2, 16, 32, 16, 4, 2, 1),
    "k4_s1": (2, 8, 8, 9, 4, 1, 1),
}
TRANSPOSED = {
    "gen1": (2, 64, 32, 4, 4, 2, 1, 0),
    "gen2": (2, 32, 16, 8, 4, 2, 1, 0),
    "gen_rgb": (2, 16, 3, 16, 4, 2, 1, 0),
    "dec_mnist": (2, 16, 1, 7, 3, 2, 1, 1),
    "dec_s1": (2, 8, 8, 14, 3, 1, 1, 0),
    "dec5": (2, 16, 8, 8, 5, 2, 2, 1),
}

# grouped, not depthwise (ResNeXt-like blocks): recorded on AVX2 only; the last field: groups
GROUPED = {
    "grp2": (2, 16, 32, 14, 3, 1, 1, 2),
    "grp4_s2": (2, 32, 32, 16, 3, 2, 1, 4),
    "grp2_5x5": (2, 32, 16, 12, 5, 1, 2, 2),
}


def _geometry(name):
    return (CONVS.get(name) or ONE_BY_ONE.get(name) or DEPTHWISE.get(name) or KERNEL4.get(name)
            or (TRANSPOSED.get(name) or GROUPED[name])[:7])


def cases_grouped():
    """(key, name, batch, seed) of the grouped cases."""
    return [(f"{name}|{n}", name, n, 1100 + 10 * i + j)
            for i, name in enumerate(GROUPED) for j, n in enumerate([1, 2, 4, 16])]


def cases_kernel4():
    """(key, name, batch, seed) of the 4x4 cases."""
    return [(f"{name}|{n}", name, n, 900 + 10 * i + j)
            for i, name in enumerate(KERNEL4) for j, n in enumerate([1, 2, 4, 16])]


def cases_transposed():
    """(key, name, batch, seed) of the transposed cases."""
    return [(f"{name}|{n}", name, n, 1000 + 10 * i + j)
            for i, name in enumerate(TRANSPOSED) for j, n in enumerate([1, 2, 4, 16])]


def cases_1x1():
    """(key, name, batch, seed) of the 1x1 cases."""
    return [(f"{name}|{n}", name, n, 700 + 10 * i + j)
            for i, name in enumerate(ONE_BY_ONE) for j, n in enumerate([2, 5, 16])]


def cases_depthwise():
    """(key, name, batch, seed) of the depthwise cases."""
    return [(f"{name}|{n}", name, n, 800 + 10 * i + j)
            for i, name in enumerate(DEPTHWISE) for j, n in enumerate([1, 2, 5, 16])]


def cases():
    """(key, name, batch) for every case."""
    out = [(f"{name}|{n}", name, n) for name in CONVS for n in BATCHES
           if not (n == 64 and (name == "odd" or name in WIDE))]
    return out + [(f"{name}|{n}", name, n) for name, n in EXTRA]


def conv_inputs(name, n, seed):
    """x, weight, bias and the output gradient (float32 arrays) of case `name` at batch n."""
    d, cin, cout, size, k, s, p = _geometry(name)
    per_group = 1 if name in DEPTHWISE else cin // GROUPED[name][7] if name in GROUPED else cin
    rng = np.random.default_rng(seed)
    spatial = (size,) * d
    x = rng.standard_normal((n, cin) + spatial).astype(np.float32)
    bound = 1 / np.sqrt(per_group * k ** d)
    if name in TRANSPOSED:
        w = rng.uniform(-bound, bound, (cin, cout) + (k,) * d).astype(np.float32)
        b = rng.uniform(-bound, bound, cout).astype(np.float32)
        out = tuple((size - 1) * s - 2 * p + k + TRANSPOSED[name][7] for _ in range(d))
        return x, w, b, rng.standard_normal((n, cout) + out).astype(np.float32)
    w = rng.uniform(-bound, bound, (cout, per_group) + (k,) * d).astype(np.float32)
    b = rng.uniform(-bound, bound, cout).astype(np.float32)
    out = tuple((size + 2 * p - k) // s + 1 for _ in range(d))
    g = rng.standard_normal((n, cout) + out).astype(np.float32)
    return x, w, b, g


def run_conv(torch, make, name, n, seed):
    """[output, d input, d weight, d bias] of the case."""
    d, cin, cout, size, k, s, p = _geometry(name)
    x, w, b, g = (make(a) for a in conv_inputs(name, n, seed))
    x.requires_grad_()
    w.requires_grad_()
    b.requires_grad_()
    if name in TRANSPOSED:
        y = torch.nn.functional.conv_transpose2d(x, w, b, stride=s, padding=p, output_padding=TRANSPOSED[name][7])
    else:
        f = torch.nn.functional.conv2d if d == 2 else torch.nn.functional.conv1d
        groups = cin if name in DEPTHWISE else GROUPED[name][7] if name in GROUPED else 1
        y = f(x, w, b, stride=s, padding=p, groups=groups)
    y.backward(g)
    return [y.detach(), x.grad, w.grad, b.grad]


# (name, input shape, pooling call)
POOLS = {
    "max2": ((4, 6, 28, 28), lambda F, x: F.max_pool2d(x, 2, 2)),
    "max2_odd": ((3, 16, 7, 7), lambda F, x: F.max_pool2d(x, 2)),
    "max3s2": ((2, 16, 14, 14), lambda F, x: F.max_pool2d(x, 3, 2, 1)),
    "max2_ceil": ((2, 6, 9, 9), lambda F, x: F.max_pool2d(x, 2, ceil_mode=True)),
    "avg2": ((4, 6, 28, 28), lambda F, x: F.avg_pool2d(x, 2, 2)),
    "avg2_lenet": ((16, 16, 10, 10), lambda F, x: F.avg_pool2d(x, kernel_size=2, stride=2)),
    "avg3s2p1": ((2, 16, 14, 14), lambda F, x: F.avg_pool2d(x, 3, 2, 1)),
    "avg3s2p1_nopad": ((2, 16, 14, 14), lambda F, x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False)),
    "adaptive1": ((64, 10, 4, 4), lambda F, x: F.adaptive_avg_pool2d(x, 1)),
    "adaptive1_big": ((4, 16, 14, 14), lambda F, x: F.adaptive_avg_pool2d(x, 1)),
    "adaptive3": ((2, 6, 10, 10), lambda F, x: F.adaptive_avg_pool2d(x, (3, 3))),
    "adaptive_up": ((2, 3, 5, 7), lambda F, x: F.adaptive_avg_pool2d(x, (7, 9))),
}


def pool_input(name, seed, ties):
    """Normal values, or (ties) values from a few levels so that windows hold equal maxima."""
    shape = POOLS[name][0]
    rng = np.random.default_rng(seed)
    if ties:
        return rng.integers(-2, 3, shape).astype(np.float32)
    return rng.standard_normal(shape).astype(np.float32)


def run_pool(torch, make, name, seed, ties):
    """[output, d input] of the pooling case, the gradient normal values."""
    x = make(pool_input(name, seed, ties))
    x.requires_grad_()
    y = POOLS[name][1](torch.nn.functional, x)
    g = make(np.random.default_rng(seed + 1).standard_normal(tuple(y.shape)).astype(np.float32))
    y.backward(g)
    return [y.detach(), x.grad]
