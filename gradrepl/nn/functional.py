"""torch.nn.functional: the engine's kernels (declared in gradrepl/engine/ops with
functional=True) plus what torch/nn/functional.py and ATen compose from other ops, with
PyTorch's argument checks and warnings."""
import math

from gradrepl.engine import metadevice
from gradrepl.nn import backend as B

ENGINE = B.TORCH["nn"]["functional"]
_engine_mse, _engine_l1 = ENGINE["mse_loss"], ENGINE["l1_loss"]
_engine_nll, _engine_dropout = ENGINE["nll_loss"], ENGINE["dropout"]


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    return ENGINE["interpolate"](input, size, scale_factor, mode, align_corners, recompute_scale_factor, antialias)


def _softmax_dim(name, ndim):
    B.warn("UserWarning", f"Implicit dimension choice for {name} has been deprecated. Change the call to "
                          "include dim=X as an argument.")
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    return input.softmax(dim) if dtype is None else input.to(dtype).softmax(dim)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    return input.log_softmax(dim) if dtype is None else input.to(dtype).log_softmax(dim)


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmin", input.dim())
    return (-input).softmax(dim) if dtype is None else (-input).to(dtype).softmax(dim)


def relu(input, inplace=False):   # through torch.*: a non-tensor input gets PyTorch's TypeError
    if inplace and not B.is_tensor(input):
        raise TypeError(f"relu_(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}")
    return input.relu_() if inplace else B.TORCH["relu"](input)


def sigmoid(input):   # PyTorch's is input.sigmoid() (AttributeError for a non-tensor), nn.Sigmoid's torch.sigmoid
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _engine_dropout(input, p, training, inplace)


def _size_warning(input, target):
    if target.size() != input.size():
        B.warn("UserWarning", f"Using a target size ({target.size()!r}) that is different to the input size "
                              f"({input.size()!r}). This will likely lead to incorrect results due to "
                              "broadcasting. Please ensure they have the same size.")


def _legacy(size_average, reduce, reduction):
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    ret = "mean" if size_average and reduce else ("sum" if reduce else "none")
    B.warn("UserWarning", f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.")
    return ret


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    _size_warning(input, target)
    reduction = _legacy(size_average, reduce, reduction)
    if weight is not None:
        return _weighted((input - target) ** 2, weight, input, reduction)
    return _engine_mse(input, target, reduction=reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    _size_warning(input, target)
    reduction = _legacy(size_average, reduce, reduction)
    if weight is not None:
        return _weighted((input - target).abs(), weight, input, reduction)
    return _engine_l1(input, target, reduction=reduction)


def _weighted(errors, weight, input, reduction):
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    weighted = errors * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return weighted.sum()
    if reduction == "mean":
        return weighted.sum() / weight.sum()
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    reduction = _legacy(size_average, reduce, reduction)
    if input.dim() > 2:     # (N, C, d1, ...): classes moved last, as nll_loss2d / nll_loss_nd
        c = input.size(1)
        if target.shape != input.shape[:1] + input.shape[2:]:
            raise RuntimeError(f"Expected target size {list(input.shape[:1] + input.shape[2:])}, got "
                               f"{list(target.shape)}")
        flat = input.movedim(1, -1).reshape(-1, c) if hasattr(input, "movedim") else \
            input.transpose(1, -1).reshape(-1, c)
        out = _engine_nll(flat, target.reshape(-1), weight, ignore_index=ignore_index, reduction=reduction)
        return out.view(target.shape) if reduction == "none" else out
    return _engine_nll(input, target, weight, ignore_index=ignore_index, reduction=reduction)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """ATen's cross_entropy_loss: class indices (with label smoothing) or class probabilities."""
    if (weight is None and label_smoothing == 0.0 and size_average is None and reduce is None
            and input.dim() == 2 and target.dim() == 1):
        # a batch of logits and class indices, nothing else (the training loops' call): what
        # the general path below does for it, without its checks that cannot fail here
        return _engine_nll(input.log_softmax(1), target, None, ignore_index=ignore_index, reduction=reduction)
    reduction = _legacy(size_average, reduce, reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    n_classes = input.size(class_dim)
    if target.shape == input.shape:   # PyTorch decides by shape: class probabilities
        if not target.is_floating_point():
            raise RuntimeError("Expected floating point type for target with class probabilities, got "
                               f"{B.legacy_scalar(target.dtype)}")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / n_classes
        logp = input.log_softmax(class_dim)
        prod = logp * target if weight is None else logp * target * _class_view(weight, input, class_dim)
        if reduction == "mean":
            return B.div_scalar(-prod.sum(), input.numel() // n_classes)
        if reduction == "sum":
            return -prod.sum()
        return -prod.sum(class_dim)
    logp = input.log_softmax(class_dim)
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing <= 0:
        return nll
    ignore_mask = target == ignore_index
    if weight is None:
        smooth = -logp.sum(class_dim)
    else:
        smooth = -(logp * _class_view(weight, input, class_dim)).sum(class_dim)
    smooth = smooth.masked_fill(ignore_mask, 0.0)
    if reduction == "mean":
        if weight is None:
            smooth = smooth.sum() / (~ignore_mask).sum()
        else:
            picked = weight.gather(0, target.masked_fill(ignore_mask, 0).flatten()).view(target.shape)
            smooth = smooth.sum() / picked.masked_fill(ignore_mask, 0.0).sum()
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / n_classes)


def _class_view(weight, input, class_dim):
    shape = [1] * input.dim()
    shape[class_dim] = weight.numel()
    return weight.view(*shape)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    return ENGINE["binary_cross_entropy"](input, target, weight, reduction=_legacy(size_average, reduce, reduction))


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    if size_average is not None or reduce is not None:
        enum = _legacy(size_average, reduce, reduction)
    else:
        if reduction == "mean":
            B.warn("UserWarning", "reduction: 'mean' divides the total loss by both the batch size and the support "
                                  "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
                                  "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
                                  "major release.")
        enum = "sum" if reduction == "batchmean" else reduction
        if enum not in ("none", "mean", "sum"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
    reduced = B.TORCH["kl_div"](input, target, enum, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = reduced / input.size()[0]
    return reduced


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    return input / denom


def _reduce(loss, reduction):
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _legacy(size_average, reduce, reduction)
    return _reduce((-target * (input1 - input2) + margin).clamp_min(0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _legacy(size_average, reduce, reduction)
    zeros = B.TORCH["zeros_like"](input)
    margin_clamp = (margin - input).clamp_min(0)
    output = B.TORCH["where"](target != 1, margin_clamp, zeros) + B.TORCH["where"](target != -1, input, zeros)
    return _reduce(output, reduction)


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _feature_dropout(input, p, training, inplace):
    return (B.TORCH["feature_dropout_"] if inplace else B.TORCH["feature_dropout"])(input, p, training)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p)
    return (B.TORCH["alpha_dropout_"] if inplace else B.TORCH["alpha_dropout"])(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p)
    return (B.TORCH["feature_alpha_dropout_"] if inplace else B.TORCH["feature_alpha_dropout"])(input, p, training)


def _feature_dropout_maybe_unbatched(input, p, training, inplace, is_batched):
    """dropout1d/3d: an unbatched input gets a batch dimension for the draw, then loses it."""
    if not is_batched:
        input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    if not is_batched:
        result = result.squeeze_(0) if inplace else result.squeeze(0)
    return result


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {inp_dim}D input. Note that dropout1d "
                           "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
                           "dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _feature_dropout_maybe_unbatched(input, p, training, inplace, inp_dim == 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (3, 4):
        B.warn("UserWarning", f"dropout2d: Received a {inp_dim}-D input to dropout2d, which is deprecated and will "
                              "result in an error in a future release. To retain the behavior and silence this "
                              "warning, please use dropout instead. Note that dropout2d exists to provide "
                              "channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and an "
                              "optional batch dimension (i.e. 3D or 4D inputs).")
    if inp_dim == 3:
        B.warn("UserWarning", "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                              "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel "
                              "dim. This behavior will change in a future release to interpret the input as one "
                              "without a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise "
                              "dropout behavior, please switch to using dropout1d instead.")
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    inp_dim = input.dim()
    if inp_dim not in (4, 5):
        B.warn("UserWarning", f"dropout3d: Received a {inp_dim}-D input to dropout3d, which is deprecated and will "
                              "result in an error in a future release. To retain the behavior and silence this "
                              "warning, please use dropout instead. Note that dropout3d exists to provide "
                              "channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and an "
                              "optional batch dimension (i.e. 4D or 5D inputs).")
    return _feature_dropout_maybe_unbatched(input, p, training, inplace, inp_dim == 5)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    B.warn("UserWarning", "`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    B.warn("UserWarning", "`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    B.warn("UserWarning", "`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = var * B.TORCH["ones_like"](input)
    elif B.TORCH["any"](var < 0):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = var.unsqueeze(-1)
        elif input.dim() == var.dim() and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction != "none" and reduction != "mean" and reduction != "sum":
        raise ValueError(reduction + " is not valid")
    var = var.clone()
    with B.TORCH["no_grad"]():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _legacy(size_average, reduce, reduction)
    logsigmoid = ENGINE["logsigmoid"]
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    c = input.size(class_dim)
    loss = loss.sum(dim=class_dim) / c
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(reduction + " is not valid")


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = ENGINE["pad"](div, (0, 0, size // 2, (size - 1) // 2))
        div = ENGINE["avg_pool2d"](div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = ENGINE["pad"](div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        n, c, d, h, w = div.shape    # avg_pool3d over (size, 1, 1): windows along d only
        div = ENGINE["avg_pool2d"](div.view(n, c, d, h * w), (size, 1), stride=1).view(n, c, d - size + 1, h, w)
        div = div.squeeze(1).view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


def _pair(v):
    return tuple(v) if isinstance(v, (tuple, list)) else (v, v)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = _pair(kernel_size)
    if norm_type == float("inf"):
        return ENGINE["max_pool2d"](input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -ENGINE["max_pool2d"](-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = ENGINE["avg_pool2d"](input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = ENGINE["avg_pool2d"](input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kw * kh).pow(1.0 / norm_type)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kd, kw, kh = tuple(kernel_size) if isinstance(kernel_size, (tuple, list)) else (kernel_size,) * 3
    if norm_type == float("inf"):
        return ENGINE["max_pool3d"](input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -ENGINE["max_pool3d"](-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = ENGINE["avg_pool3d"](input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = ENGINE["avg_pool3d"](input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kd * kw * kh).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    if norm_type == float("inf"):
        return ENGINE["max_pool1d"](input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if norm_type == -float("inf"):
        return -ENGINE["max_pool1d"](-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    if stride is not None:
        out = ENGINE["avg_pool1d"](input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    else:
        out = ENGINE["avg_pool1d"](input.pow(norm_type), kernel_size, padding=0, ceil_mode=ceil_mode)
    return (out.sign() * out.abs().relu()).mul(kernel_size).pow(1.0 / norm_type)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    if eps != 1e-10:
        B.warn("UserWarning", "`eps` parameter is deprecated and has no effect.")
    gumbels = -B.TORCH["empty_like"](logits).exponential_().log()
    gumbels = (logits + gumbels) / tau
    y_soft = gumbels.softmax(dim)
    if hard:
        index = y_soft.max(dim, keepdim=True)[1]
        y_hard = B.TORCH["zeros_like"](logits).scatter_(dim, index, 1.0)
        return y_hard - y_soft.detach() + y_soft
    return y_soft


COMPOSED = ("softmax", "log_softmax", "softmin", "relu", "sigmoid", "tanh", "softsign", "tanhshrink", "dropout",
            "mse_loss", "l1_loss", "nll_loss", "cross_entropy", "binary_cross_entropy", "kl_div",
            "normalize", "margin_ranking_loss", "hinge_embedding_loss", "alpha_dropout", "feature_alpha_dropout",
            "dropout1d", "dropout2d", "dropout3d", "upsample", "upsample_nearest",
            "upsample_bilinear", "gaussian_nll_loss", "multilabel_soft_margin_loss", "local_response_norm",
            "lp_pool1d", "lp_pool2d", "lp_pool3d", "gumbel_softmax", "triplet_margin_with_distance_loss")

# the losses PyTorch's CPU autocast runs in float32 (gradrepl/engine/amp.py's list): composed
# here, so wrapped here, where nn's losses and torch.nn.functional both call them
for _name in COMPOSED:
    if B.AUTOCAST_POLICIES.get(_name) is not None:
        globals()[_name] = B.autocast_op(globals()[_name], B.AUTOCAST_POLICIES[_name])


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    """PyTorch's composite: distance_function (pairwise_distance by default) to the positive and
    the negative, clamp_min(margin + d_pos - d_neg, 0), reduced."""
    if margin <= 0:
        raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead")
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not a_dim == p_dim == n_dim:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {a_dim}D, positive {p_dim}D, and negative {n_dim}D inputs")
    dist_fn = distance_function if distance_function is not None else ENGINE["pairwise_distance"]
    dist_pos = dist_fn(anchor, positive)
    dist_neg = dist_fn(anchor, negative)
    if swap:
        dist_neg = B.TORCH["minimum"](dist_neg, dist_fn(positive, negative))
    loss = B.TORCH["clamp_min"](margin + dist_pos - dist_neg, 0)
    if reduction == "mean":
        return B.TORCH["mean"](loss)
    if reduction == "sum":
        return B.TORCH["sum"](loss)
    return loss


def namespace():
    from gradrepl.nn.transformer import multi_head_attention_forward   # transformer.py imports this module
    ns = dict(ENGINE)
    g = globals()
    ns.update((name, g[name]) for name in COMPOSED)
    ns["multi_head_attention_forward"] = multi_head_attention_forward
    B.register_functional(ns)
    B.register_forward_ad(ns)
    metadevice.register_names(ns)
    return ns


_NAMESPACE = None


def namespace_fn(name):
    """nn.functional.`name` (a module's forward calls through here)."""
    global _NAMESPACE
    if _NAMESPACE is None:
        _NAMESPACE = namespace()
    return _NAMESPACE[name]
