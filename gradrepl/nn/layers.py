"""The layers of torch.nn (linear, flatten, dropout, activations), as torch/nn/modules/*.py."""
import math

from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn import init
from gradrepl.nn.module import Module, Parameter


def _path(name, file):
    return f"torch.nn.modules.{file}.{name}"


class Identity(Module):
    torch_path = _path("Identity", "linear")

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Linear(Module):
    torch_path = _path("Linear", "linear")
    gradrepl_public = Module.gradrepl_public | {"reset_parameters"}

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(B.TORCH["empty"]((out_features, in_features), dtype=dtype))
        if bias:
            self.bias = Parameter(B.TORCH["empty"](out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.namespace_fn("linear")(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class LazyLinear(Linear):
    """torch.nn.LazyLinear(out_features): in_features is read from the first input; the
    parameters are then shaped in place, initialised as Linear's, and the module becomes
    a Linear (PyTorch's LazyModuleMixin with cls_to_become = Linear)."""
    torch_path = _path("LazyLinear", "linear")

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = Parameter(B.TORCH["empty"](0, dtype=dtype))
        if bias:
            self.bias = Parameter(B.TORCH["empty"](0, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        for p in (self.weight, self.bias):
            if p is not None:
                B.UNINITIALIZED[id(p)] = p

        def initialize(module, args):
            handle.remove()
            # parameters a load_state_dict already materialized keep their loaded values
            fresh = any(p is not None and B.UNINITIALIZED.get(id(p)) is p for p in (module.weight, module.bias))
            for p in (module.weight, module.bias):
                B.UNINITIALIZED.pop(id(p), None)
            module.in_features = int(args[0].shape[-1])
            if fresh:
                module.weight.data = B.TORCH["empty"]((module.out_features, module.in_features), dtype=dtype)
                if module.bias is not None:
                    module.bias.data = B.TORCH["empty"](module.out_features, dtype=dtype)
            object.__setattr__(module, "__class__", Linear)
            if fresh:
                module.reset_parameters()
        handle = self._forward_pre_hooks.add(initialize)

    def reset_parameters(self):
        if self.in_features != 0:
            super().reset_parameters()


class Flatten(Module):
    torch_path = _path("Flatten", "flatten")

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    torch_path = _path("Unflatten", "flatten")

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, int):
            if not isinstance(unflattened_size, (tuple, list)) or \
                    not all(isinstance(e, int) for e in unflattened_size):
                raise TypeError("unflattened_size must be tuple of ints, but found type "
                                f"{type(unflattened_size).__name__}")
        else:
            raise TypeError(f"invalid argument type for dim parameter, got {type(dim).__name__}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        shape = list(input.shape)
        d = self.dim if self.dim >= 0 else self.dim + len(shape)
        return input.view(*shape[:d], *self.unflattened_size, *shape[d + 1:])

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class Dropout(Module):
    torch_path = _path("Dropout", "dropout")

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


# ------------------------------------------------------------------ activations
class ReLU(Module):
    torch_path = _path("ReLU", "activation")

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self):
        return "inplace=True" if self.inplace else ""


class Sigmoid(Module):
    torch_path = _path("Sigmoid", "activation")

    def forward(self, input):
        return F.sigmoid(input)


class Tanh(Module):
    torch_path = _path("Tanh", "activation")

    def forward(self, input):
        return F.tanh(input)


class LeakyReLU(Module):
    torch_path = _path("LeakyReLU", "activation")

    def __init__(self, negative_slope=1e-2, inplace=False):
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input):
        return F.namespace_fn("leaky_relu")(input, self.negative_slope, self.inplace)

    def extra_repr(self):
        return f"negative_slope={self.negative_slope}{', inplace=True' if self.inplace else ''}"


class Softmax(Module):
    torch_path = _path("Softmax", "activation")

    def __init__(self, dim=None):
        super().__init__()
        self.dim = dim

    def forward(self, input):
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self):
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    torch_path = _path("LogSoftmax", "activation")

    def forward(self, input):
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Softmin(Softmax):
    torch_path = _path("Softmin", "activation")

    def forward(self, input):
        return F.softmin(input, self.dim, _stacklevel=5)


def _activation(name, function, params=(), extra=None, base=Module):
    """An activation module class whose __init__ stores `params` (name, default) and whose
    forward calls nn.functional.`function` with them, printed as `extra(self)`."""
    names = [p for p, _ in params]

    def __init__(self, *args, **kwargs):
        Module.__init__(self)
        values = dict(params)
        for key, value in zip(names, args):
            values[key] = value
        for key, value in kwargs.items():
            if key not in values:
                raise TypeError(f"{name}.__init__() got an unexpected keyword argument '{key}'")
            values[key] = value
        for key in names:
            setattr(self, key, values[key])

    def forward(self, input):
        return F.namespace_fn(function)(input, *[getattr(self, k) for k in names if k != "inplace"])

    ns = {"torch_path": _path(name, "activation"), "__init__": __init__, "forward": forward,
          "__module__": __name__, "__qualname__": name}
    if extra is not None:
        ns["extra_repr"] = extra
    return type(Module)(name, (base,), ns)


def _inplace_str(self, lead=", "):
    return f"{lead}inplace=True" if self.inplace else ""


GELU = _activation("GELU", "gelu", (("approximate", "none"),), lambda self: f"approximate={self.approximate!r}")
ELU = _activation("ELU", "elu", (("alpha", 1.0), ("inplace", False)),
                  lambda self: f"alpha={self.alpha}{_inplace_str(self)}")
CELU = _activation("CELU", "celu", (("alpha", 1.0), ("inplace", False)),
                   lambda self: f"alpha={self.alpha}{_inplace_str(self)}")
SELU = _activation("SELU", "selu", (("inplace", False),), lambda self: _inplace_str(self, ""))
SiLU = _activation("SiLU", "silu", (("inplace", False),), lambda self: _inplace_str(self, ""))
Mish = _activation("Mish", "mish", (("inplace", False),), lambda self: _inplace_str(self, ""))
Softplus = _activation("Softplus", "softplus", (("beta", 1.0), ("threshold", 20.0)),
                       lambda self: f"beta={self.beta}, threshold={self.threshold}")
Hardtanh = _activation("Hardtanh", "hardtanh", (("min_val", -1.0), ("max_val", 1.0), ("inplace", False)),
                       lambda self: f"min_val={self.min_val}, max_val={self.max_val}{_inplace_str(self)}")
ReLU6 = _activation("ReLU6", "relu6", (("inplace", False),), lambda self: _inplace_str(self, ""))
Hardsigmoid = _activation("Hardsigmoid", "hardsigmoid", (("inplace", False),))
Hardswish = _activation("Hardswish", "hardswish", (("inplace", False),))
LogSigmoid = _activation("LogSigmoid", "logsigmoid")
Softsign = _activation("Softsign", "softsign")
Tanhshrink = _activation("Tanhshrink", "tanhshrink")


# ------------------------------------------------------------------ convolution and pooling
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


class LazyConv1d(_LazyConvNd):
    torch_path = _path("LazyConv1d", "conv")
    dims = 1
    becomes = Conv1d


class LazyConv2d(_LazyConvNd):
    torch_path = _path("LazyConv2d", "conv")
    dims = 2
    becomes = Conv2d


class _MaxPoolNd(Module):
    function = None     # the F.max_pool* a subclass's forward calls

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


class MaxPool2d(_MaxPoolNd):
    torch_path = _path("MaxPool2d", "pooling")
    function = "max_pool2d"


class AvgPool2d(Module):
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

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    torch_path = _path("AdaptiveAvgPool2d", "pooling")

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.namespace_fn("adaptive_avg_pool2d")(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(Module):
    torch_path = _path("AdaptiveAvgPool1d", "pooling")

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def forward(self, input):
        return F.namespace_fn("adaptive_avg_pool1d")(input, self.output_size)

    def extra_repr(self):
        return f"output_size={self.output_size}"


# ------------------------------------------------------------------ embedding and normalisation
class Embedding(Module):
    torch_path = _path("Embedding", "sparse")

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, device=None, dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if padding_idx is not None:
            if padding_idx > 0:
                if padding_idx >= self.num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
            elif padding_idx < 0:
                if padding_idx < -self.num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = self.num_embeddings + padding_idx
        if max_norm is not None:
            raise NotImplementedError("nn.Embedding(max_norm=...) is not available in gradrepl")
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(B.TORCH["empty"]((num_embeddings, embedding_dim), dtype=dtype),
                                    requires_grad=not _freeze)
            init.normal_(self.weight)
            if self.padding_idx is not None:
                B.fill_row_(self.weight, self.padding_idx, 0)
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)
        self.sparse = sparse

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, padding_idx=None, max_norm=None, norm_type=2.0,
                        scale_grad_by_freq=False, sparse=False):
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, _freeze=freeze,
                   padding_idx=padding_idx, max_norm=max_norm, norm_type=norm_type,
                   scale_grad_by_freq=scale_grad_by_freq, sparse=sparse)

    def forward(self, input):
        return F.namespace_fn("embedding")(input, self.weight, self.padding_idx)

    def extra_repr(self):
        s = "{num_embeddings}, {embedding_dim}"
        if self.padding_idx is not None:
            s += ", padding_idx={padding_idx}"
        if self.norm_type != 2:
            s += ", norm_type={norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq={scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s.format(**self.__dict__)


def _affine_parameters(module, shape, affine, bias, dtype):
    """A norm layer's weight (ones) and bias (zeros), or None for each, as PyTorch's."""
    if affine:
        module.weight = Parameter(B.TORCH["ones"](shape, dtype=dtype))
        if bias:
            module.bias = Parameter(B.TORCH["zeros"](shape, dtype=dtype))
        else:
            module.register_parameter("bias", None)
    else:
        module.register_parameter("weight", None)
        module.register_parameter("bias", None)


class LayerNorm(Module):
    torch_path = _path("LayerNorm", "normalization")

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, device=None, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _affine_parameters(self, self.normalized_shape, elementwise_affine, bias, dtype)

    def forward(self, input):
        return F.namespace_fn("layer_norm")(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class BatchNorm1d(Module):
    torch_path = _path("BatchNorm1d", "batchnorm")
    gradrepl_public = Module.gradrepl_public | {"reset_running_stats", "reset_parameters"}

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None,
                 dtype=None, *, bias=True):
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        _affine_parameters(self, num_features, affine, bias, dtype)
        if track_running_stats:
            self.register_buffer("running_mean", B.TORCH["zeros"](num_features, dtype=dtype))
            self.register_buffer("running_var", B.TORCH["ones"](num_features, dtype=dtype))
            self.register_buffer("num_batches_tracked", B.TORCH["tensor"](0))
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def reset_running_stats(self):
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self):
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def extra_repr(self):
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")

    def forward(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")
        return self.normalize(input)

    def normalize(self, input):
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            B.increment_(self.num_batches_tracked)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        bn_training = True if self.training else self.running_mean is None and self.running_var is None
        keep = not self.training or self.track_running_stats
        return F.namespace_fn("batch_norm")(input, self.running_mean if keep else None,
                                            self.running_var if keep else None, self.weight, self.bias,
                                            bn_training, factor, self.eps)


class BatchNorm2d(BatchNorm1d):
    torch_path = _path("BatchNorm2d", "batchnorm")

    def forward(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")
        return self.normalize(input)
