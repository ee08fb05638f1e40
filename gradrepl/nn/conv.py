"""The convolution modules of torch.nn (torch/nn/modules/conv.py)."""
import math

from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn import init
from gradrepl.nn.module import Module, Parameter, _path


def _ntuple(v, n):
    return tuple(v) if isinstance(v, (tuple, list)) else (v,) * n


class ConvNd(Module):
    dims = 2
    gradrepl_public = Module.gradrepl_public | {"reset_parameters"}

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        n = self.dims
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        kernel_size, stride, dilation = _ntuple(kernel_size, n), _ntuple(stride, n), _ntuple(dilation, n)
        if isinstance(padding, str):
            if padding not in ("same", "valid"):
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {{'valid', 'same'}}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        else:
            padding = _ntuple(padding, n)
        if padding_mode != "zeros":
            raise NotImplementedError(f"padding_mode='{padding_mode}' is not available in gradrepl (only 'zeros')")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = False
        self.output_padding = (0,) * n
        self.groups = groups
        self.padding_mode = padding_mode
        self.weight = Parameter(B.TORCH["empty"]((out_channels, in_channels // groups, *kernel_size), dtype=dtype))
        if bias:
            self.bias = Parameter(B.TORCH["empty"](out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

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

    def forward(self, input):
        fn = F.namespace_fn("conv2d" if self.dims == 2 else "conv1d")
        return fn(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv1d(ConvNd):
    torch_path = _path("Conv1d", "conv")
    dims = 1


class Conv2d(ConvNd):
    torch_path = _path("Conv2d", "conv")
    dims = 2


class _LazyConvNd(ConvNd):
    """torch.nn.LazyConv1d/2d(out_channels, kernel_size, ...): in_channels is read from the
    first input (dim 1, or dim 0 unbatched); the parameters are then shaped, initialised as
    ConvNd's, and the module becomes a Conv1d/Conv2d (PyTorch's LazyModuleMixin)."""
    becomes = ConvNd

    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        ConvNd.__init__(self, 0, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                        padding_mode, device, dtype)
        self.weight = Parameter(B.TORCH["empty"](0, dtype=dtype))
        if bias:
            self.bias = Parameter(B.TORCH["empty"](0, dtype=dtype))
        for p in (self.weight, self.bias):
            if p is not None:
                B.UNINITIALIZED[id(p)] = p

        def initialize(module, args):
            input = args[0]
            n = len(module.kernel_size)
            if input.dim() not in (n + 1, n + 2):
                raise RuntimeError(f"Expected {n + 1}D (unbatched) or {n + 2}D (batched) input to "
                                   f"{type(module).__name__}, but got input of size: {list(input.shape)}")
            handle.remove()
            # parameters a load_state_dict already materialized keep their loaded values
            fresh = any(p is not None and B.UNINITIALIZED.get(id(p)) is p for p in (module.weight, module.bias))
            for p in (module.weight, module.bias):
                B.UNINITIALIZED.pop(id(p), None)
            if fresh:       # (loaded parameters leave in_channels 0, as PyTorch's repr shows)
                module.in_channels = int(input.shape[1] if input.dim() == n + 2 else input.shape[0])
                if module.in_channels % module.groups != 0:
                    raise ValueError("in_channels must be divisible by groups")
                module.weight.data = B.TORCH["empty"](
                    (module.out_channels, module.in_channels // module.groups, *module.kernel_size), dtype=dtype)
                if module.bias is not None:
                    module.bias.data = B.TORCH["empty"](module.out_channels, dtype=dtype)
            object.__setattr__(module, "__class__", module.becomes)
            if fresh:
                module.reset_parameters()
        handle = self._forward_pre_hooks.add(initialize)

    def reset_parameters(self):
        if self.in_channels != 0:
            super().reset_parameters()


class LazyConv1d(_LazyConvNd, Conv1d):
    torch_path = _path("LazyConv1d", "conv")
    dims = 1
    becomes = Conv1d


class LazyConv2d(_LazyConvNd, Conv2d):
    torch_path = _path("LazyConv2d", "conv")
    dims = 2
    becomes = Conv2d


class Conv3d(ConvNd):
    torch_path = _path("Conv3d", "conv")
    dims = 3

    def forward(self, input):
        return F.namespace_fn("conv3d")(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                                        self.groups)


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


    def _padding_for(self, input, output_size):
        """The output_padding that gives the requested output size (its spatial sizes, or
        the whole shape), checked against the sizes this stride can reach."""
        n = self.dims
        lead = 2 if input.dim() == n + 2 else 1
        if len(output_size) == lead + n:
            output_size = output_size[lead:]
        if len(output_size) != n:
            raise ValueError(f"ConvTranspose{n}D: for {input.dim()}D input, output_size must have {n} or "
                             f"{lead + n} elements (got {len(output_size)})")
        lows = [(input.shape[lead + d] - 1) * self.stride[d] - 2 * self.padding[d]
                + self.dilation[d] * (self.kernel_size[d] - 1) + 1 for d in range(n)]
        highs = [low + s - 1 for low, s in zip(lows, self.stride)]
        if any(not low <= size <= high for size, low, high in zip(output_size, lows, highs)):
            raise ValueError(f"requested an output size of {output_size!r}, but valid sizes range from {lows} to "
                             f"{highs} (for an input of {input.size()[2:]!r})")
        return tuple(size - low for size, low in zip(output_size, lows))

    def forward(self, input, output_size=None):
        output_padding = self.output_padding if output_size is None else self._padding_for(input, output_size)
        return F.namespace_fn(f"conv_transpose{self.dims}d")(input, self.weight, self.bias, self.stride, self.padding,
                                                   output_padding, self.groups, self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    torch_path = _path("ConvTranspose1d", "conv")
    dims = 1


class ConvTranspose2d(_ConvTransposeNd):
    torch_path = _path("ConvTranspose2d", "conv")
    dims = 2
