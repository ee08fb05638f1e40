import torch
import torch.nn as nn

# isinstance answers as PyTorch's class tree (_AdaptiveMaxPoolNd, _LPPoolNd, _BatchNorm, _NormBase ...)
mods = {
    "AdaptiveAvgPool1d": nn.AdaptiveAvgPool1d(2), "AdaptiveAvgPool2d": nn.AdaptiveAvgPool2d(2),
    "AdaptiveMaxPool1d": nn.AdaptiveMaxPool1d(2), "AdaptiveMaxPool2d": nn.AdaptiveMaxPool2d(2),
    "AvgPool1d": nn.AvgPool1d(2), "AvgPool2d": nn.AvgPool2d(2), "MaxPool1d": nn.MaxPool1d(2),
    "MaxPool2d": nn.MaxPool2d(2), "LPPool1d": nn.LPPool1d(2, 3), "LPPool2d": nn.LPPool2d(2, 3),
    "BatchNorm1d": nn.BatchNorm1d(3), "BatchNorm2d": nn.BatchNorm2d(3), "BatchNorm3d": nn.BatchNorm3d(3),
    "InstanceNorm1d": nn.InstanceNorm1d(3), "InstanceNorm2d": nn.InstanceNorm2d(3),
    "InstanceNorm3d": nn.InstanceNorm3d(3), "LayerNorm": nn.LayerNorm(3), "GroupNorm": nn.GroupNorm(1, 3),
    "RMSNorm": nn.RMSNorm(3), "LocalResponseNorm": nn.LocalResponseNorm(2),
    "ConstantPad1d": nn.ConstantPad1d(1, 0.5), "ConstantPad2d": nn.ConstantPad2d(1, 0.5),
    "ConstantPad3d": nn.ConstantPad3d(1, 0.5), "ZeroPad1d": nn.ZeroPad1d(1), "ZeroPad2d": nn.ZeroPad2d(1),
    "ZeroPad3d": nn.ZeroPad3d(1), "ReflectionPad1d": nn.ReflectionPad1d(1), "ReflectionPad2d": nn.ReflectionPad2d(1),
    "ReplicationPad1d": nn.ReplicationPad1d(1), "CircularPad1d": nn.CircularPad1d(1),
    "Softmax": nn.Softmax(1), "LogSoftmax": nn.LogSoftmax(1), "Softmin": nn.Softmin(1), "Softmax2d": nn.Softmax2d(),
    "Hardtanh": nn.Hardtanh(), "ReLU6": nn.ReLU6(), "ReLU": nn.ReLU(), "Hardshrink": nn.Hardshrink(),
    "Softshrink": nn.Softshrink(), "Dropout": nn.Dropout(), "Dropout1d": nn.Dropout1d(), "Dropout2d": nn.Dropout2d(),
    "Dropout3d": nn.Dropout3d(), "AlphaDropout": nn.AlphaDropout(), "FeatureAlphaDropout": nn.FeatureAlphaDropout(),
    "Conv1d": nn.Conv1d(2, 2, 1), "Conv2d": nn.Conv2d(2, 2, 1), "Conv3d": nn.Conv3d(2, 2, 1),
    "LazyConv1d": nn.LazyConv1d(2, 1), "LazyConv2d": nn.LazyConv2d(2, 1),
    "ConvTranspose1d": nn.ConvTranspose1d(2, 2, 1), "ConvTranspose2d": nn.ConvTranspose2d(2, 2, 1),
    "Linear": nn.Linear(2, 2), "LazyLinear": nn.LazyLinear(2), "Bilinear": nn.Bilinear(2, 2, 2),
    "Upsample": nn.Upsample(scale_factor=2), "UpsamplingNearest2d": nn.UpsamplingNearest2d(scale_factor=2),
    "UpsamplingBilinear2d": nn.UpsamplingBilinear2d(scale_factor=2),
    "CosineEmbeddingLoss": nn.CosineEmbeddingLoss(), "MarginRankingLoss": nn.MarginRankingLoss(),
    "HingeEmbeddingLoss": nn.HingeEmbeddingLoss(), "MSELoss": nn.MSELoss(), "L1Loss": nn.L1Loss(),
    "CrossEntropyLoss": nn.CrossEntropyLoss(), "NLLLoss": nn.NLLLoss(), "Embedding": nn.Embedding(3, 2),
    "EmbeddingBag": nn.EmbeddingBag(3, 2),
}
for a, m in mods.items():
    print(a, [b for b in mods if b != a and isinstance(m, getattr(nn, b))])
print(nn.ReLU6(), nn.ReLU6(inplace=True), nn.ZeroPad2d(1), nn.ZeroPad2d((1, 2, 0, 1)), nn.Softshrink(0.3))
print(nn.ReLU6()(torch.tensor([-1., 3., 7.])), nn.ZeroPad1d(1)(torch.ones(1, 2)))
m = nn.BatchNorm2d(2)
print(m, m(torch.arange(16.).view(2, 2, 2, 2)).sum())
m.eval()
print(m.running_mean, m.num_batches_tracked, m(torch.ones(1, 2, 1, 1)).view(-1))
