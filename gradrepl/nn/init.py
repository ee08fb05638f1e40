"""torch.nn.init, as torch/nn/init.py computes its bounds (the digits depend on it)."""
import math

import numpy as np

from gradrepl.engine import mkl
from gradrepl.nn import backend as B


def _check(tensor, fn):
    if not B.is_tensor(tensor):
        raise TypeError(f"{fn}(): argument 'tensor' must be Tensor, not {type(tensor).__name__}")


def calculate_gain(nonlinearity, param=None):
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                  "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, int) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    _check(tensor, "uniform_")
    return B.uniform_(tensor, a, b, generator)


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    _check(tensor, "normal_")
    return B.normal_(tensor, mean, std, generator)


def constant_(tensor, val):
    _check(tensor, "constant_")
    return B.fill_(tensor, val)


def ones_(tensor):
    return constant_(tensor, 1.0)


def zeros_(tensor):
    return constant_(tensor, 0.0)


def eye_(tensor):
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return B.fill_(tensor, B.array(B.TORCH["eye"](*tensor.shape, dtype=tensor.dtype)))


def _calculate_fan_in_and_fan_out(tensor):
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    for s in tensor.shape[2:]:
        receptive_field_size *= s
    return num_input_fmaps * receptive_field_size, num_output_fmaps * receptive_field_size


def _calculate_correct_fan(tensor, mode):
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return B.uniform_(tensor, -a, a, generator)


def xavier_normal_(tensor, gain=1.0, generator=None):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return B.normal_(tensor, 0.0, std, generator)


def _zero_elements(tensor):
    if 0 in tensor.shape:
        B.warn("UserWarning", "Initializing zero-element tensors is a no-op")
        return True
    return False


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if _zero_elements(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    return B.uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    if _zero_elements(tensor):
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    return B.normal_(tensor, 0, std, generator)


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """PyTorch 2.13's rejection sampling, draw for draw (so the same digits): redraw normals
    outside [a, b] when the interval holds more than 30% of the mass; otherwise uniform
    candidates in [a, b] accepted against the normal's density."""
    _check(tensor, "trunc_normal_")
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0
    if mean < a - 2 * std or mean > b + 2 * std:
        B.warn("UserWarning", "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of "
                              "values may be incorrect.")
    T = B.TORCH
    with T["no_grad"]():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            lo = T["tensor"](a, dtype=tensor.dtype).item()    # the bounds as the tensor's dtype holds them
            hi = T["tensor"](b, dtype=tensor.dtype).item()
            drawn = B.normal_(tensor, mean, std, generator)
            while True:
                outside = (drawn < lo) | (drawn > hi)
                if not outside.any().item():
                    break
                drawn = T["where"](outside, B.normal_(T["empty_like"](drawn), mean, std, generator), drawn)
            if drawn is not tensor:
                tensor.copy_(drawn)
            return tensor
        log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2

        def log_density(candidates):
            return candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)

        accept = T["empty_like"](tensor)
        B.uniform_(tensor, a, b, generator)
        pending = B.uniform_(accept, 0.0, 1.0, generator).log_().gt(log_density(tensor.clone()))
        drawn = tensor
        while pending.any().item():
            candidates = B.uniform_(T["empty_like"](tensor), a, b, generator)
            drawn = T["where"](pending, candidates, drawn)
            pending = T["where"](pending, B.uniform_(accept, 0.0, 1.0, generator).log_().gt(log_density(candidates)),
                                 pending)
        if drawn is not tensor:
            tensor.copy_(drawn)
    return tensor


def dirac_(tensor, groups=1):
    dimensions = tensor.ndimension()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    a = B.array(tensor).copy()
    a[...] = 0
    centre = tuple(s // 2 for s in sizes[2:])
    for g in range(groups):
        for d in range(min_dim):
            a[(g * out_chans_per_grp + d, d) + centre] = 1
    return B.fill_(tensor, a)


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix from the QR factorisation of standard normal draws, as
    torch/nn/init.py (the same draws; LAPACK's Householder QR, signs fixed by diag(R))."""
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = B.TORCH["empty"]((rows, cols), dtype=tensor.dtype)
    B.normal_(flattened, 0, 1, generator)
    a = B.array(flattened)
    if rows < cols:
        a = a.T
    got = mkl.qr(a)     # torch.linalg.qr: MKL's LAPACK, its last bits
    q, r = got if got is not None else np.linalg.qr(a)
    q = q * np.sign(np.diag(r)).astype(q.dtype)
    if rows < cols:
        q = q.T
    q = q.astype(B.array(tensor).dtype)
    return B.fill_(tensor, (q * q.dtype.type(gain)).reshape(B.array(tensor).shape))


def _deprecated(new_name):
    old_name = new_name[:-1]

    def init(*args, **kwargs):
        B.warn("FutureWarning", f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.")
        return globals()[new_name](*args, **kwargs)
    init.__name__ = old_name
    return init


PUBLIC = ("calculate_gain", "uniform_", "normal_", "constant_", "ones_", "zeros_", "eye_", "dirac_", "orthogonal_",
          "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_", "trunc_normal_")
DEPRECATED = ("uniform_", "normal_", "constant_", "xavier_uniform_", "xavier_normal_", "kaiming_uniform_",
              "kaiming_normal_", "eye_", "dirac_", "orthogonal_")


def namespace():
    ns = {name: globals()[name] for name in PUBLIC}
    ns.update((name[:-1], _deprecated(name)) for name in DEPRECATED)
    return ns
