"""More layers of torch.nn (issue 14): the thin modules around nn.functional's norms, pooling,
padding, shuffling, upsampling, activations, transposed convolutions and losses, with PyTorch's
reprs (InstanceNorm*, the dropout variants and Bilinear are in extra_layers.py)."""

from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn import init
from gradrepl.nn.layers import ConvNd, _MaxPoolNd, _affine_parameters, _ntuple, _path
from gradrepl.nn.loss import Loss, WeightedLoss, _path as _loss_path
from gradrepl.nn.module import Module, Parameter


def _fn(name):
    return F.namespace_fn(name)


# ------------------------------------------------------------------ normalisation
class GroupNorm(Module):
    torch_path = _path("GroupNorm", "normalization")
    gradrepl_public = Module.gradrepl_public | {"reset_parameters"}

    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None, *, bias=True):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _affine_parameters(self, num_channels, affine, bias, dtype)

    def reset_parameters(self):
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def forward(self, input):
        return _fn("group_norm")(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class LocalResponseNorm(Module):
    torch_path = _path("LocalResponseNorm", "normalization")

    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input):
        return _fn("local_response_norm")(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self):
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"


class RMSNorm(Module):
    torch_path = _path("RMSNorm", "normalization")
    gradrepl_public = Module.gradrepl_public | {"reset_parameters"}

    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(B.TORCH["ones"](self.normalized_shape, dtype=dtype))
        else:
            self.register_parameter("weight", None)

    def reset_parameters(self):
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x):
        return _fn("rms_norm")(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


# ------------------------------------------------------------------ distances, shuffles, upsampling
class CosineSimilarity(Module):
    torch_path = _path("CosineSimilarity", "distance")

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return _fn("cosine_similarity")(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    torch_path = _path("PairwiseDistance", "distance")

    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return _fn("pairwise_distance")(x1, x2, self.norm, self.eps, self.keepdim)


class PixelShuffle(Module):
    torch_path = _path("PixelShuffle", "pixelshuffle")

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return _fn("pixel_shuffle")(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    torch_path = _path("PixelUnshuffle", "pixelshuffle")

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return _fn("pixel_unshuffle")(input, self.downscale_factor)

    def extra_repr(self):
        return f"downscale_factor={self.downscale_factor}"


class Upsample(Module):
    torch_path = _path("Upsample", "upsampling")

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input):
        return _fn("interpolate")(input, self.size, self.scale_factor, self.mode, self.align_corners,
                                  recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self):
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        return info + ", mode=" + repr(self.mode)


class UpsamplingNearest2d(Upsample):
    torch_path = _path("UpsamplingNearest2d", "upsampling")

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    torch_path = _path("UpsamplingBilinear2d", "upsampling")

    def __init__(self, size=None, scale_factor=None):
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)


# ------------------------------------------------------------------ activations
class PReLU(Module):
    torch_path = _path("PReLU", "activation")
    gradrepl_public = Module.gradrepl_public | {"reset_parameters"}

    def __init__(self, num_parameters=1, init=0.25, device=None, dtype=None):
        super().__init__()
        self.num_parameters = num_parameters
        self.init = init
        self.weight = Parameter(B.TORCH["empty"](num_parameters, dtype=dtype))
        self.reset_parameters()

    def reset_parameters(self):
        init_module.constant_(self.weight, self.init)

    def forward(self, input):
        return _fn("prelu")(input, self.weight)

    def extra_repr(self):
        return f"num_parameters={self.num_parameters}"


init_module = init


class Threshold(Module):
    torch_path = _path("Threshold", "activation")

    def __init__(self, threshold, value, inplace=False):
        super().__init__()
        self.threshold = threshold
        self.value = value
        self.inplace = inplace

    def forward(self, input):
        return _fn("threshold")(input, self.threshold, self.value, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"threshold={self.threshold}, value={self.value}{inplace_str}"


class GLU(Module):
    torch_path = _path("GLU", "activation")

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return _fn("glu")(input, self.dim)

    def extra_repr(self):
        return f"dim={self.dim}"


class Hardshrink(Module):
    torch_path = _path("Hardshrink", "activation")

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = lambd

    def forward(self, input):
        return _fn("hardshrink")(input, self.lambd)

    def extra_repr(self):
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    torch_path = _path("Softshrink", "activation")

    def forward(self, input):
        return _fn("softshrink")(input, self.lambd)


class RReLU(Module):
    torch_path = _path("RReLU", "activation")

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, inplace=False):
        super().__init__()
        self.lower = lower
        self.upper = upper
        self.inplace = inplace

    def forward(self, input):
        return _fn("rrelu")(input, self.lower, self.upper, self.training, self.inplace)

    def extra_repr(self):
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"lower={self.lower}, upper={self.upper}{inplace_str}"


# ------------------------------------------------------------------ padding
def _padding(padding, n):
    return tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * (2 * n)


class _ConstantPadNd(Module):
    dims = 1

    def __init__(self, padding, value):
        super().__init__()
        self.padding = _padding(padding, self.dims)
        self.value = value

    def forward(self, input):
        return _fn("pad")(input, self.padding, "constant", self.value)

    def extra_repr(self):
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    def __init__(self, padding):
        super().__init__(padding, 0.0)

    def extra_repr(self):
        return f"{self.padding}"


class _ModePadNd(Module):
    dims = 1
    mode = "reflect"

    def __init__(self, padding):
        super().__init__()
        self.padding = _padding(padding, self.dims)

    def forward(self, input):
        return _fn("pad")(input, self.padding, self.mode)

    def extra_repr(self):
        return f"{self.padding}"


def _pad_class(name, base, dims, mode=None):
    ns = {"torch_path": _path(name, "padding"), "dims": dims, "__module__": __name__, "__qualname__": name}
    if mode is not None:
        ns["mode"] = mode
    return type(Module)(name, (base,), ns)


ConstantPad1d = _pad_class("ConstantPad1d", _ConstantPadNd, 1)
ConstantPad2d = _pad_class("ConstantPad2d", _ConstantPadNd, 2)
ConstantPad3d = _pad_class("ConstantPad3d", _ConstantPadNd, 3)
ZeroPad1d = _pad_class("ZeroPad1d", _ZeroPadNd, 1)
ZeroPad2d = _pad_class("ZeroPad2d", _ZeroPadNd, 2)
ZeroPad3d = _pad_class("ZeroPad3d", _ZeroPadNd, 3)
ReflectionPad1d = _pad_class("ReflectionPad1d", _ModePadNd, 1, "reflect")
ReflectionPad2d = _pad_class("ReflectionPad2d", _ModePadNd, 2, "reflect")
ReflectionPad3d = _pad_class("ReflectionPad3d", _ModePadNd, 3, "reflect")
ReplicationPad1d = _pad_class("ReplicationPad1d", _ModePadNd, 1, "replicate")
ReplicationPad2d = _pad_class("ReplicationPad2d", _ModePadNd, 2, "replicate")
ReplicationPad3d = _pad_class("ReplicationPad3d", _ModePadNd, 3, "replicate")
CircularPad1d = _pad_class("CircularPad1d", _ModePadNd, 1, "circular")
CircularPad2d = _pad_class("CircularPad2d", _ModePadNd, 2, "circular")
CircularPad3d = _pad_class("CircularPad3d", _ModePadNd, 3, "circular")


# ------------------------------------------------------------------ pooling
class MaxPool1d(_MaxPoolNd):
    torch_path = _path("MaxPool1d", "pooling")
    function = "max_pool1d"


class AvgPool1d(Module):
    torch_path = _path("AvgPool1d", "pooling")

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = _ntuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return _fn("avg_pool1d")(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                 self.count_include_pad)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveMaxPool1d(Module):
    torch_path = _path("AdaptiveMaxPool1d", "pooling")

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):
        return _fn("adaptive_max_pool1d")(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool2d(AdaptiveMaxPool1d):
    torch_path = _path("AdaptiveMaxPool2d", "pooling")

    def forward(self, input):
        return _fn("adaptive_max_pool2d")(input, self.output_size, self.return_indices)


class LPPool1d(Module):
    torch_path = _path("LPPool1d", "pooling")

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return _fn("lp_pool1d")(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool2d(LPPool1d):
    torch_path = _path("LPPool2d", "pooling")

    def forward(self, input):
        return _fn("lp_pool2d")(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


# ------------------------------------------------------------------ losses
class PoissonNLLLoss(Loss):
    torch_path = _loss_path("PoissonNLLLoss")

    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return _fn("poisson_nll_loss")(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                       reduction=self.reduction)


class GaussianNLLLoss(Loss):
    torch_path = _loss_path("GaussianNLLLoss")

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return _fn("gaussian_nll_loss")(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class SoftMarginLoss(Loss):
    torch_path = _loss_path("SoftMarginLoss")

    def forward(self, input, target):
        return _fn("soft_margin_loss")(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(WeightedLoss):
    torch_path = _loss_path("MultiLabelSoftMarginLoss")

    def forward(self, input, target):
        return _fn("multilabel_soft_margin_loss")(input, target, weight=self.weight, reduction=self.reduction)


class MultiLabelMarginLoss(Loss):
    torch_path = _loss_path("MultiLabelMarginLoss")

    def forward(self, input, target):
        return _fn("multilabel_margin_loss")(input, target, reduction=self.reduction)


class MultiMarginLoss(WeightedLoss):
    torch_path = _loss_path("MultiMarginLoss")

    def __init__(self, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D "
                             "instead")
        self.p = p
        self.margin = margin

    def forward(self, input, target):
        return _fn("multi_margin_loss")(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                        reduction=self.reduction)


class CosineEmbeddingLoss(Loss):
    torch_path = _loss_path("CosineEmbeddingLoss")

    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1, input2, target):
        return _fn("cosine_embedding_loss")(input1, input2, target, margin=self.margin, reduction=self.reduction)


class MarginRankingLoss(CosineEmbeddingLoss):
    torch_path = _loss_path("MarginRankingLoss")

    def forward(self, input1, input2, target):
        return _fn("margin_ranking_loss")(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(Loss):
    torch_path = _loss_path("HingeEmbeddingLoss")

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return _fn("hinge_embedding_loss")(input, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(Loss):
    torch_path = _loss_path("TripletMarginLoss")

    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return _fn("triplet_margin_loss")(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                          swap=self.swap, reduction=self.reduction)


# ------------------------------------------------------------------ fold, unfold
class Fold(Module):
    torch_path = _path("Fold", "fold")

    def __init__(self, output_size, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.output_size = output_size
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return _fn("fold")(input, self.output_size, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Unfold(Module):
    torch_path = _path("Unfold", "fold")

    def __init__(self, kernel_size, dilation=1, padding=0, stride=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.dilation = dilation
        self.padding = padding
        self.stride = stride

    def forward(self, input):
        return _fn("unfold")(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


# ------------------------------------------------------------------ conv3d, transposed convolutions
class Conv3d(ConvNd):
    torch_path = _path("Conv3d", "conv")
    dims = 3

    def forward(self, input):
        return _fn("conv3d")(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class _ConvTransposeNd(ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        Module.__init__(self)
        n = self.dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _ntuple(kernel_size, n)
        self.stride = _ntuple(stride, n)
        self.padding = _ntuple(padding, n)
        self.dilation = _ntuple(dilation, n)
        self.transposed = True
        self.output_padding = _ntuple(output_padding, n)
        self.groups = groups
        self.padding_mode = padding_mode
        self.weight = Parameter(B.TORCH["empty"]((in_channels, out_channels // groups, *self.kernel_size),
                                                 dtype=dtype))
        if bias:
            self.bias = Parameter(B.TORCH["empty"](out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def extra_repr(self):
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        return s.format(**self.__dict__)

    def forward(self, input, output_size=None):
        if output_size is not None:
            raise NotImplementedError(f"{type(self).__name__}.forward(output_size=...) is not available in gradrepl")
        return _fn(f"conv_transpose{self.dims}d")(input, self.weight, self.bias, self.stride, self.padding,
                                                   self.output_padding, self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    torch_path = _path("ConvTranspose1d", "conv")
    dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    torch_path = _path("ConvTranspose2d", "conv")
    dims = 2
