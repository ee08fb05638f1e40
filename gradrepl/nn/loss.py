"""The loss modules of torch.nn (torch/nn/modules/loss.py)."""
from gradrepl.nn import backend as B
from gradrepl.nn import functional as F
from gradrepl.nn.layers import PairwiseDistance
from gradrepl.nn.module import Module, _path


def legacy_reduction(size_average, reduce):
    """torch.nn._reduction.legacy_get_string, with its deprecation warning."""
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    ret = "mean" if size_average and reduce else ("sum" if reduce else "none")
    B.warn("UserWarning", f"size_average and reduce args will be deprecated, please use reduction='{ret}' instead.")
    return ret


class Loss(Module):
    def __init__(self, size_average=None, reduce=None, reduction="mean"):
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = legacy_reduction(size_average, reduce)
        self.reduction = reduction


class WeightedLoss(Loss):
    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


class L1Loss(Loss):
    torch_path = _path("L1Loss", "loss")

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(Loss):
    torch_path = _path("MSELoss", "loss")

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(WeightedLoss):
    torch_path = _path("NLLLoss", "loss")

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CTCLoss(Loss):
    torch_path = _path("CTCLoss", "loss")

    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(None, None, reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.namespace_fn("ctc_loss")(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                                          self.zero_infinity)


class CrossEntropyLoss(WeightedLoss):
    torch_path = _path("CrossEntropyLoss", "loss")

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(WeightedLoss):
    torch_path = _path("BCELoss", "loss")

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class SmoothL1Loss(Loss):
    torch_path = _path("SmoothL1Loss", "loss")

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.namespace_fn("smooth_l1_loss")(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(Loss):
    torch_path = _path("HuberLoss", "loss")

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.namespace_fn("huber_loss")(input, target, reduction=self.reduction, delta=self.delta)


class BCEWithLogitsLoss(Loss):
    torch_path = _path("BCEWithLogitsLoss", "loss")

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.namespace_fn("binary_cross_entropy_with_logits")(input, target, self.weight,
                                                                  pos_weight=self.pos_weight, reduction=self.reduction)


class KLDivLoss(Loss):
    torch_path = _path("KLDivLoss", "loss")

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class PoissonNLLLoss(Loss):
    torch_path = _path("PoissonNLLLoss", "loss")

    def __init__(self, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input, target):
        return F.namespace_fn("poisson_nll_loss")(log_input, target, log_input=self.log_input, full=self.full,
                                                  eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(Loss):
    torch_path = _path("GaussianNLLLoss", "loss")

    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input, target, var):
        return F.namespace_fn("gaussian_nll_loss")(input, target, var, full=self.full, eps=self.eps,
                                                   reduction=self.reduction)


class SoftMarginLoss(Loss):
    torch_path = _path("SoftMarginLoss", "loss")

    def forward(self, input, target):
        return F.namespace_fn("soft_margin_loss")(input, target, reduction=self.reduction)


class MultiLabelSoftMarginLoss(WeightedLoss):
    torch_path = _path("MultiLabelSoftMarginLoss", "loss")

    def forward(self, input, target):
        return F.namespace_fn("multilabel_soft_margin_loss")(input, target, weight=self.weight,
                                                             reduction=self.reduction)


class MultiLabelMarginLoss(Loss):
    torch_path = _path("MultiLabelMarginLoss", "loss")

    def forward(self, input, target):
        return F.namespace_fn("multilabel_margin_loss")(input, target, reduction=self.reduction)


class MultiMarginLoss(WeightedLoss):
    torch_path = _path("MultiMarginLoss", "loss")

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
        return F.namespace_fn("multi_margin_loss")(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                                   reduction=self.reduction)


class _MarginLoss(Loss):
    def __init__(self, margin=0.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin


class CosineEmbeddingLoss(_MarginLoss):
    torch_path = _path("CosineEmbeddingLoss", "loss")

    def forward(self, input1, input2, target):
        return F.namespace_fn("cosine_embedding_loss")(input1, input2, target, margin=self.margin,
                                                       reduction=self.reduction)


class MarginRankingLoss(_MarginLoss):
    torch_path = _path("MarginRankingLoss", "loss")

    def forward(self, input1, input2, target):
        return F.namespace_fn("margin_ranking_loss")(input1, input2, target, margin=self.margin,
                                                     reduction=self.reduction)


class HingeEmbeddingLoss(Loss):
    torch_path = _path("HingeEmbeddingLoss", "loss")

    def __init__(self, margin=1.0, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input, target):
        return F.namespace_fn("hinge_embedding_loss")(input, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(Loss):
    torch_path = _path("TripletMarginLoss", "loss")

    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, size_average=None, reduce=None, reduction="mean"):
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.namespace_fn("triplet_margin_loss")(anchor, positive, negative, margin=self.margin, p=self.p,
                                                     eps=self.eps, swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(Loss):
    torch_path = _path("TripletMarginWithDistanceLoss", "loss")

    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} "
                             "instead")
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor, positive, negative):
        return F.namespace_fn("triplet_margin_with_distance_loss")(
            anchor, positive, negative, distance_function=self.distance_function, margin=self.margin, swap=self.swap,
            reduction=self.reduction)
