"""The linear, sparse, flatten, distance, pixel-shuffle, upsampling and fold layers of torch.nn
(torch/nn/modules/linear.py, sparse.py, flatten.py, distance.py, pixelshuffle.py, upsampling.py, fold.py).

Bilinear sums in another order than ATen's fused kernel, so it agrees to print precision."""
import math

from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn import init
from gradrepl.nn.module import Module, Parameter, _path


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


class Embedding(Module):
    torch_path = _path("Embedding", "sparse")
    gradrepl_class_public = frozenset(("from_pretrained",))

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


class Bilinear(Module):
    torch_path = _path("Bilinear", "linear")
    gradrepl_public = Module.gradrepl_public | {"reset_parameters", "in1_features", "in2_features", "out_features"}

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(B.TORCH["empty"]((out_features, in1_features, in2_features), dtype=dtype))
        if bias:
            self.bias = Parameter(B.TORCH["empty"](out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        if self.in1_features <= 0:
            raise ValueError(f"in1_features must be > 0, but got (in1_features={self.in1_features})")
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        w = self.weight
        o, i, j = w.shape
        if input1.size(-1) != i:
            raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {input1.size(-1)} but "
                               f"expected {i}")
        if input2.size(-1) != j:
            raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {input2.size(-1)} but "
                               f"expected {j}")
        lead = input1.shape[:-1]
        x1, x2 = input1.reshape(-1, i), input2.reshape(-1, j)
        # out[n, o] = sum_i x1[n, i] * sum_j W[o, i, j] x2[n, j]
        inner = x2.matmul(w.permute(2, 0, 1).reshape(j, o * i)).view(-1, o, i)
        out = (inner * x1.unsqueeze(1)).sum(-1).view(*lead, o)
        return out if self.bias is None else out + self.bias

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class EmbeddingBag(Module):
    torch_path = _path("EmbeddingBag", "sparse")
    gradrepl_class_public = frozenset(("from_pretrained",))
    gradrepl_public = Module.gradrepl_public | {"reset_parameters", "num_embeddings", "embedding_dim", "mode",
                                                "padding_idx", "include_last_offset"}

    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        if max_norm is not None:
            raise NotImplementedError("nn.EmbeddingBag(max_norm=...) is not available in gradrepl")
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if padding_idx is not None:
            if padding_idx > 0:
                if padding_idx >= self.num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
            elif padding_idx < 0:
                if padding_idx < -self.num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
                padding_idx = self.num_embeddings + padding_idx
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(B.TORCH["empty"]((num_embeddings, embedding_dim), dtype=dtype))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            B.fill_row_(self.weight, self.padding_idx, 0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.namespace_fn("embedding_bag")(input, self.weight, offsets, self.max_norm, self.norm_type,
                                               self.scale_grad_by_freq, self.mode, self.sparse, per_sample_weights,
                                               self.include_last_offset, self.padding_idx)

    @classmethod
    def from_pretrained(cls, embeddings, freeze=True, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                        mode="mean", sparse=False, include_last_offset=False, padding_idx=None):
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        bag = cls(num_embeddings=rows, embedding_dim=cols, _weight=embeddings, max_norm=max_norm,
                  norm_type=norm_type, scale_grad_by_freq=scale_grad_by_freq, mode=mode, sparse=sparse,
                  include_last_offset=include_last_offset, padding_idx=padding_idx)
        bag.weight.requires_grad = not freeze
        return bag

    def extra_repr(self):
        s = f"{self.num_embeddings!r}, {self.embedding_dim!r}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm!r}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type!r}"
        if self.scale_grad_by_freq is not False:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq!r}"
        s += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx!r}"
        return s


class CosineSimilarity(Module):
    torch_path = _path("CosineSimilarity", "distance")

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.namespace_fn("cosine_similarity")(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    torch_path = _path("PairwiseDistance", "distance")

    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.namespace_fn("pairwise_distance")(x1, x2, self.norm, self.eps, self.keepdim)


class PixelShuffle(Module):
    torch_path = _path("PixelShuffle", "pixelshuffle")

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.namespace_fn("pixel_shuffle")(input, self.upscale_factor)

    def extra_repr(self):
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    torch_path = _path("PixelUnshuffle", "pixelshuffle")

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.namespace_fn("pixel_unshuffle")(input, self.downscale_factor)

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
        return F.namespace_fn("interpolate")(input, self.size, self.scale_factor, self.mode, self.align_corners,
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
        return F.namespace_fn("fold")(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                                      self.stride)

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
        return F.namespace_fn("unfold")(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self):
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")
