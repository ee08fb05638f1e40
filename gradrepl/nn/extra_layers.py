"""Less common layers of torch.nn, as torch/nn/modules/*.py defines them: Bilinear,
EmbeddingBag, InstanceNorm1d/2d/3d, BatchNorm3d, Dropout1d/2d/3d, AlphaDropout,
FeatureAlphaDropout, Softmax2d.

Their forwards are ATen's composites written with the engine's ops (instance_norm is
batch_norm on a (1, N*C, ...) view, feature dropout draws one Bernoulli per channel, alpha
dropout is ATen's affine rescaling); EmbeddingBag and Bilinear sum in another order than
ATen's fused kernels, so they agree to print precision and record ordinary nodes
(EmbeddingBag's output shows StackBackward0 where PyTorch shows EmbeddingBagBackward0)."""
import math

from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn import init
from gradrepl.nn.layers import BatchNorm1d, _path
from gradrepl.nn.module import Module, Parameter


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
        mode = self.mode
        if per_sample_weights is not None and input.size() != per_sample_weights.size():
            raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then "
                             f"it must have the same shape as the input ({input.shape})")
        include_last = self.include_last_offset
        if input.dim() == 2:
            if offsets is not None:
                raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch "
                                 "of fixed length sequences. However, found offsets of type "
                                 f"{B.class_repr(offsets)}")
            starts = list(range(0, input.numel(), input.size(1))) if input.size(1) else [0] * input.size(0)
            include_last = False
            flat = input.reshape(-1)
            weights = None if per_sample_weights is None else per_sample_weights.reshape(-1)
        elif input.dim() == 1:
            if offsets is None:
                raise ValueError("offsets has to be a 1D Tensor but got None")
            if offsets.dim() != 1:
                raise ValueError("offsets has to be a 1D Tensor")
            starts = offsets.tolist()
            flat, weights = input, per_sample_weights
        else:
            raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
        if mode not in ("sum", "mean", "max"):
            raise ValueError("mode has to be one of sum, mean or max")
        if weights is not None and mode != "sum":
            raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                      f"supported for mode='sum' (got mode='{mode}'). Please open a feature request "
                                      "on GitHub.")
        n = flat.numel()
        ends = starts[1:] + [n]
        if include_last:
            starts, ends = starts[:-1], starts[1:]
        rows = F.namespace_fn("embedding")(flat, self.weight)
        if weights is not None:
            rows = rows * weights.unsqueeze(1)
        idx = flat.tolist()
        bags = []
        zeros = B.TORCH["zeros"](self.embedding_dim, dtype=self.weight.dtype)
        for s, e in zip(starts, ends):
            keep = [k for k in range(s, e) if idx[k] != self.padding_idx]
            if not keep:
                bags.append(zeros)
                continue
            picked = rows[keep[0]:keep[-1] + 1] if keep == list(range(keep[0], keep[-1] + 1)) else \
                rows[B.TORCH["tensor"](keep)]
            if mode == "max":
                bags.append(picked.max(0)[0])
            elif mode == "mean":
                bags.append(picked.sum(0) / len(keep))
            else:
                bags.append(picked.sum(0))
        return B.TORCH["stack"](bags, 0) if bags else B.TORCH["zeros"](0, self.embedding_dim)

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


# ------------------------------------------------------------------ normalisation
class BatchNorm3d(BatchNorm1d):
    torch_path = _path("BatchNorm3d", "batchnorm")

    def forward(self, input):
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")
        return self.normalize(input)


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


class _InstanceNorm(BatchNorm1d):
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


# ------------------------------------------------------------------ dropout
def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _dropout_impl(input, p, train, feature, alpha):
    """ATen's _dropout_impl (Dropout.cpp) for feature_dropout / alpha_dropout / feature_alpha_dropout."""
    if p == 0 or not train or input.numel() == 0:
        return input
    if p == 1:
        return input * B.TORCH["zeros"]((), dtype=input.dtype)
    shape = (*input.shape[:2], *([1] * (input.dim() - 2))) if feature else input.shape
    noise = B.TORCH["empty"](shape, dtype=input.dtype).bernoulli_(1 - p)
    if alpha:
        alpha_ = 1.7580993408473766
        a = 1. / math.sqrt((alpha_ * alpha_ * p + 1) * (1 - p))
        b = noise.add(-1).mul_(alpha_ * a).add_(alpha_ * a * p)
        noise.mul_(a)
        return input * noise + b
    noise.div_(1 - p)
    return input * noise


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


def _unbatched(input, batched, fn):
    if batched:
        return fn(input)
    return fn(input.unsqueeze(0)).squeeze(0)


class Dropout1d(_DropoutNd):
    torch_path = _path("Dropout1d", "dropout")

    def forward(self, input):
        _check_p(self.p)
        if input.dim() not in (2, 3):
            raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that "
                               "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                               "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
        return _unbatched(input, input.dim() == 3,
                          lambda x: _dropout_impl(x, self.p, self.training, True, False))


class Dropout2d(_DropoutNd):
    torch_path = _path("Dropout2d", "dropout")

    def forward(self, input):
        _check_p(self.p)
        d = input.dim()
        if d not in (3, 4):
            B.warn("UserWarning", f"dropout2d: Received a {d}-D input to dropout2d, which is deprecated and will "
                                  "result in an error in a future release. To retain the behavior and silence this "
                                  "warning, please use dropout instead. Note that dropout2d exists to provide "
                                  "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and "
                                  "an optional batch dimension (i.e. 3D or 4D inputs).")
        if d == 3:
            B.warn("UserWarning", "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
                                  "dropout behavior is desired - input is interpreted as shape (N, C, L), where C is "
                                  "the channel dim. This behavior will change in a future release to interpret the "
                                  "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
                                  "channel-wise dropout behavior, please switch to using dropout1d instead.")
        return _dropout_impl(input, self.p, self.training, True, False)


class Dropout3d(_DropoutNd):
    torch_path = _path("Dropout3d", "dropout")

    def forward(self, input):
        _check_p(self.p)
        d = input.dim()
        if d not in (4, 5):
            B.warn("UserWarning", f"dropout3d: Received a {d}-D input to dropout3d, which is deprecated and will "
                                  "result in an error in a future release. To retain the behavior and silence this "
                                  "warning, please use dropout instead. Note that dropout3d exists to provide "
                                  "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and "
                                  "an optional batch dimension (i.e. 4D or 5D inputs).")
        return _unbatched(input, d == 5, lambda x: _dropout_impl(x, self.p, self.training, True, False))


class AlphaDropout(_DropoutNd):
    torch_path = _path("AlphaDropout", "dropout")

    def forward(self, input):
        _check_p(self.p)
        return _dropout_impl(input, self.p, self.training, False, True)


class FeatureAlphaDropout(_DropoutNd):
    torch_path = _path("FeatureAlphaDropout", "dropout")

    def forward(self, input):
        _check_p(self.p)
        return _dropout_impl(input, self.p, self.training, True, True)


class Softmax2d(Module):
    torch_path = _path("Softmax2d", "activation")

    def forward(self, input):
        if input.dim() not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.dim()}D instead")
        return F.softmax(input, -3, _stacklevel=5)
