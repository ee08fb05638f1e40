"""The pooling modules of torch.nn (torch/nn/modules/pooling.py), on PyTorch's bases
(_MaxPoolNd, _AvgPoolNd, _AdaptiveAvgPoolNd, _AdaptiveMaxPoolNd, _LPPoolNd) so that
`isinstance` answers as PyTorch's. Each forward calls the nn.functional named `function`."""
from gradrepl.nn import functional as F
from gradrepl.nn.conv import _ntuple
from gradrepl.nn.module import Module, _path


class _MaxPoolNd(Module):
    function = None

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return F.namespace_fn(self.function)(input, self.kernel_size, self.stride, self.padding, self.dilation,
                                             ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    torch_path = _path("MaxPool1d", "pooling")
    function = "max_pool1d"


class MaxPool2d(_MaxPoolNd):
    torch_path = _path("MaxPool2d", "pooling")
    function = "max_pool2d"


class MaxPool3d(_MaxPoolNd):
    torch_path = _path("MaxPool3d", "pooling")
    function = "max_pool3d"


class _AvgPoolNd(Module):
    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    torch_path = _path("AvgPool1d", "pooling")

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, 1)
        self.stride = _ntuple(stride if stride is not None else kernel_size, 1)
        self.padding = _ntuple(padding, 1)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.namespace_fn("avg_pool1d")(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                            self.count_include_pad)


class AvgPool2d(_AvgPoolNd):
    torch_path = _path("AvgPool2d", "pooling")

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return F.namespace_fn("avg_pool2d")(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                            self.count_include_pad, self.divisor_override)


class AvgPool3d(_AvgPoolNd):
    torch_path = _path("AvgPool3d", "pooling")

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return F.namespace_fn("avg_pool3d")(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                            self.count_include_pad, self.divisor_override)


class _AdaptiveAvgPoolNd(Module):
    function = None

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.namespace_fn(self.function)(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    torch_path = _path("AdaptiveAvgPool1d", "pooling")
    function = "adaptive_avg_pool1d"


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    torch_path = _path("AdaptiveAvgPool2d", "pooling")
    function = "adaptive_avg_pool2d"


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    torch_path = _path("AdaptiveAvgPool3d", "pooling")
    function = "adaptive_avg_pool3d"


class _AdaptiveMaxPoolNd(Module):
    function = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def forward(self, input):
        return F.namespace_fn(self.function)(input, self.output_size, self.return_indices)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    torch_path = _path("AdaptiveMaxPool1d", "pooling")
    function = "adaptive_max_pool1d"


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    torch_path = _path("AdaptiveMaxPool2d", "pooling")
    function = "adaptive_max_pool2d"


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    torch_path = _path("AdaptiveMaxPool3d", "pooling")
    function = "adaptive_max_pool3d"


class _LPPoolNd(Module):
    function = None

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def forward(self, input):
        return F.namespace_fn(self.function)(input, float(self.norm_type), self.kernel_size, self.stride,
                                             self.ceil_mode)

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, "
                f"ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    torch_path = _path("LPPool1d", "pooling")
    function = "lp_pool1d"


class LPPool2d(_LPPoolNd):
    torch_path = _path("LPPool2d", "pooling")
    function = "lp_pool2d"


class LPPool3d(_LPPoolNd):
    torch_path = _path("LPPool3d", "pooling")
    function = "lp_pool3d"


class _MaxUnpoolNd(Module):
    function = None
    single = None       # the tuple helper: (k,) or (k, k)

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        tup = type(self).single
        self.kernel_size = tup(kernel_size)
        self.stride = tup(stride if stride is not None else kernel_size)
        self.padding = tup(padding)

    def forward(self, input, indices, output_size=None):
        return F.namespace_fn(self.function)(input, indices, self.kernel_size, self.stride, self.padding,
                                             output_size)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    torch_path = _path("MaxUnpool1d", "pooling")
    function = "max_unpool1d"
    single = staticmethod(lambda v: _ntuple(v, 1))


class MaxUnpool2d(_MaxUnpoolNd):
    torch_path = _path("MaxUnpool2d", "pooling")
    function = "max_unpool2d"
    single = staticmethod(lambda v: _ntuple(v, 2))


class MaxUnpool3d(_MaxUnpoolNd):
    torch_path = _path("MaxUnpool3d", "pooling")
    function = "max_unpool3d"
    single = staticmethod(lambda v: _ntuple(v, 3))


class _FractionalMaxPoolNd(Module):
    function = None
    dims = None

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False):
        super().__init__()
        self.kernel_size = _ntuple(kernel_size, self.dims)
        self.return_indices = return_indices
        self.output_size = _ntuple(output_size, self.dims) if output_size is not None else None
        self.output_ratio = _ntuple(output_ratio, self.dims) if output_ratio is not None else None
        if output_size is None and output_ratio is None:
            raise ValueError(f"{type(self).__name__} requires specifying either an output size, or a pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input):
        return F.namespace_fn(self.function)(input, self.kernel_size, self.output_size, self.output_ratio,
                                             self.return_indices)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    torch_path = _path("FractionalMaxPool2d", "pooling")
    function = "fractional_max_pool2d"
    dims = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    torch_path = _path("FractionalMaxPool3d", "pooling")
    function = "fractional_max_pool3d"
    dims = 3
