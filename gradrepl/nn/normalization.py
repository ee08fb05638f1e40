"""The normalisation modules of torch.nn (torch/nn/modules/batchnorm.py, instancenorm.py,
normalization.py). instance_norm is ATen's composite: batch_norm on a (1, N*C, ...) view."""
from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn import init
from gradrepl.nn.module import Module, Parameter, _path


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


class _NormBase(Module):
    """PyTorch's _NormBase: the parameters and running statistics of batch and instance norm."""
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


class _BatchNorm(_NormBase):
    def _check_input_dim(self, input):
        raise NotImplementedError

    def forward(self, input):
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and self.num_batches_tracked is not None:
            B.increment_(self.num_batches_tracked)
            factor = 1.0 / float(self.num_batches_tracked) if self.momentum is None else self.momentum
        bn_training = True if self.training else self.running_mean is None and self.running_var is None
        keep = not self.training or self.track_running_stats
        return F.namespace_fn("batch_norm")(input, self.running_mean if keep else None,
                                            self.running_var if keep else None, self.weight, self.bias, bn_training,
                                            factor, self.eps)


class BatchNorm1d(_BatchNorm):
    torch_path = _path("BatchNorm1d", "batchnorm")

    def _check_input_dim(self, input):
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    torch_path = _path("BatchNorm2d", "batchnorm")

    def _check_input_dim(self, input):
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    torch_path = _path("BatchNorm3d", "batchnorm")

    def _check_input_dim(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class _LazyBatchNorm(_BatchNorm):
    """torch.nn.LazyBatchNorm1d/2d/3d(eps, momentum, affine, track_running_stats): num_features is
    read from the first input's dim 1; weight, bias, running_mean and running_var are then
    shaped and reset as BatchNorm's, and the module becomes a BatchNorm1d/2d/3d (PyTorch's
    _LazyNormBase). With neither affine parameters nor running statistics nothing is lazy:
    the module becomes a BatchNorm with num_features 0."""
    becomes = _BatchNorm

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None, *,
                 bias=True):
        _NormBase.__init__(self, 0, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)
        for t in (self.weight, self.bias, self.running_mean, self.running_var):
            if t is not None:
                B.UNINITIALIZED[id(t)] = t

        def initialize(module, args):
            lazy = [t for t in (module.weight, module.bias, module.running_mean, module.running_var)
                    if t is not None and B.UNINITIALIZED.get(id(t)) is t]
            if lazy:
                module.num_features = int(args[0].shape[1])   # a 1-d input: IndexError, still lazy
                for t in lazy:
                    B.UNINITIALIZED.pop(id(t), None)
                    t.data = B.TORCH["empty"](module.num_features, dtype=t.dtype)
            handle.remove()
            object.__setattr__(module, "__class__", module.becomes)
            if lazy:
                module.reset_parameters()
        handle = self._forward_pre_hooks.add(initialize)

    def reset_parameters(self):
        if self.num_features != 0:
            super().reset_parameters()


class LazyBatchNorm1d(_LazyBatchNorm, BatchNorm1d):
    torch_path = _path("LazyBatchNorm1d", "batchnorm")
    becomes = BatchNorm1d


class LazyBatchNorm2d(_LazyBatchNorm, BatchNorm2d):
    torch_path = _path("LazyBatchNorm2d", "batchnorm")
    becomes = BatchNorm2d


class LazyBatchNorm3d(_LazyBatchNorm, BatchNorm3d):
    torch_path = _path("LazyBatchNorm3d", "batchnorm")
    becomes = BatchNorm3d


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """ATen's instance_norm: batch_norm over a (1, N*C, ...) view, running stats averaged back."""
    if use_input_stats:
        size = input.size()
        size_prods = size[0]
        for i in range(len(size) - 2):
            size_prods *= size[i + 2]
        if size_prods == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size {size!r}")
    b, c = input.size(0), input.size(1)
    shape = (1, b * c, *input.shape[2:])
    reshaped = input.contiguous().view(*shape)

    def repeat(t):
        return None if t is None else t.repeat(b)

    mean_, var_ = repeat(running_mean), repeat(running_var)
    out = F.namespace_fn("batch_norm")(reshaped, mean_, var_, repeat(weight), repeat(bias), use_input_stats,
                                       momentum, eps)
    with B.TORCH["no_grad"]():
        if running_mean is not None:
            running_mean.copy_(mean_.view(b, c).mean(0))
        if running_var is not None:
            running_var.copy_(var_.view(b, c).mean(0))
    return out.view(*input.shape)


class _InstanceNorm(_NormBase):
    no_batch_dim = 2

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None, *, bias=True):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, dtype=dtype, bias=bias)

    def forward(self, input):
        lo = self.no_batch_dim
        if input.dim() not in (lo, lo + 1):
            raise ValueError(f"expected {lo}D or {lo + 1}D input (got {input.dim()}D input)")
        feature_dim = input.dim() - lo
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(feature_dim)}.")
            B.warn("UserWarning", f"input's size at dim={feature_dim} does not match num_features. You can silence "
                                  "this warning by not passing in num_features, which is not used because "
                                  "affine=False")
        if input.dim() == lo:
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)

    def _apply_instance_norm(self, input):
        return instance_norm(input, self.running_mean, self.running_var, self.weight, self.bias,
                             self.training or not self.track_running_stats,
                             self.momentum if self.momentum is not None else 0.0, self.eps)


class InstanceNorm1d(_InstanceNorm):
    torch_path = _path("InstanceNorm1d", "instancenorm")
    no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    torch_path = _path("InstanceNorm2d", "instancenorm")
    no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    torch_path = _path("InstanceNorm3d", "instancenorm")
    no_batch_dim = 4


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
        return F.namespace_fn("group_norm")(input, self.num_groups, self.weight, self.bias, self.eps)

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
        return F.namespace_fn("local_response_norm")(input, self.size, self.alpha, self.beta, self.k)

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
        return F.namespace_fn("rms_norm")(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
