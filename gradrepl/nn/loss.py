"""The loss modules of torch.nn (torch/nn/modules/loss.py)."""
from gradrepl.nn import functional as F
from gradrepl.nn.module import Module


def _path(name):
    return f"torch.nn.modules.loss.{name}"


def legacy_reduction(size_average, reduce):
    """torch.nn._reduction.legacy_get_string (without its deprecation warning's stack)."""
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        return "mean"
    return "sum" if reduce else "none"


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
    torch_path = _path("L1Loss")

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(Loss):
    torch_path = _path("MSELoss")

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(WeightedLoss):
    torch_path = _path("NLLLoss")

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class CrossEntropyLoss(WeightedLoss):
    torch_path = _path("CrossEntropyLoss")

    def __init__(self, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                 label_smoothing=0.0):
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(WeightedLoss):
    torch_path = _path("BCELoss")

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class SmoothL1Loss(Loss):
    torch_path = _path("SmoothL1Loss")

    def __init__(self, size_average=None, reduce=None, reduction="mean", beta=1.0):
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input, target):
        return F.namespace_fn("smooth_l1_loss")(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(Loss):
    torch_path = _path("HuberLoss")

    def __init__(self, reduction="mean", delta=1.0):
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input, target):
        return F.namespace_fn("huber_loss")(input, target, reduction=self.reduction, delta=self.delta)


class BCEWithLogitsLoss(Loss):
    torch_path = _path("BCEWithLogitsLoss")

    def __init__(self, weight=None, size_average=None, reduce=None, reduction="mean", pos_weight=None):
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input, target):
        return F.namespace_fn("binary_cross_entropy_with_logits")(input, target, self.weight,
                                                                  pos_weight=self.pos_weight,
                                                                  reduction=self.reduction)


class KLDivLoss(Loss):
    torch_path = _path("KLDivLoss")

    def __init__(self, size_average=None, reduce=None, reduction="mean", log_target=False):
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)
