"""The dropout modules of torch.nn (torch/nn/modules/dropout.py): each forward is its nn.functional."""
from gradrepl.nn import functional as F
from gradrepl.nn.module import Module, _path


class _DropoutNd(Module):
    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    torch_path = _path("Dropout", "dropout")

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    torch_path = _path("Dropout1d", "dropout")

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    torch_path = _path("Dropout2d", "dropout")

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    torch_path = _path("Dropout3d", "dropout")

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    torch_path = _path("AlphaDropout", "dropout")

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training, self.inplace)


class FeatureAlphaDropout(_DropoutNd):
    torch_path = _path("FeatureAlphaDropout", "dropout")

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training, self.inplace)
