import torch
import torch.nn as nn
mods = [nn.GroupNorm(2, 4), nn.GroupNorm(2, 4, affine=False, eps=1e-3), nn.InstanceNorm1d(3),
        nn.InstanceNorm2d(3, affine=True, track_running_stats=True), nn.InstanceNorm3d(2), nn.CosineSimilarity(),
        nn.PairwiseDistance(), nn.PixelShuffle(2), nn.PixelUnshuffle(3), nn.Upsample(scale_factor=2),
        nn.Upsample(size=(3, 4), mode="bilinear", align_corners=True), nn.UpsamplingNearest2d(scale_factor=2),
        nn.UpsamplingBilinear2d(size=5), nn.PReLU(), nn.PReLU(3, 0.1), nn.Threshold(0.1, 20), nn.GLU(),
        nn.ZeroPad2d(2), nn.ZeroPad1d((1, 2)), nn.ConstantPad1d(2, 3.5), nn.ConstantPad2d((1, 0, 2, 0), 0),
        nn.ConstantPad3d(1, -1.0), nn.ReflectionPad1d(2), nn.ReflectionPad2d((1, 1, 2, 0)), nn.ReplicationPad1d(1),
        nn.ReplicationPad2d(2), nn.CircularPad1d(1), nn.CircularPad2d(1), nn.MaxPool1d(3),
        nn.MaxPool1d(3, 2, 1, return_indices=True), nn.AvgPool1d(3), nn.AvgPool1d(2, 1, 1, True, False),
        nn.AdaptiveMaxPool1d(3), nn.AdaptiveMaxPool2d((2, None)), nn.LPPool1d(2, 3), nn.LPPool2d(2, 2, 1),
        nn.LocalResponseNorm(3), nn.RMSNorm(4), nn.RMSNorm([2, 3], eps=1e-5, elementwise_affine=False),
        nn.Dropout1d(), nn.Dropout2d(0.3), nn.Dropout3d(inplace=True), nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(),
        nn.RReLU(), nn.RReLU(0.1, 0.3, True), nn.Hardshrink(), nn.Softshrink(0.3), nn.PoissonNLLLoss(),
        nn.GaussianNLLLoss(), nn.SoftMarginLoss(), nn.MultiLabelSoftMarginLoss(), nn.CosineEmbeddingLoss(),
        nn.TripletMarginLoss(), nn.MultiMarginLoss(), nn.MultiLabelMarginLoss(), nn.MarginRankingLoss(),
        nn.HingeEmbeddingLoss(), nn.TripletMarginLoss(margin=0.5, p=1, swap=True), nn.Bilinear(2, 2, 1, bias=False)]
for m in mods:
    print(m)
_ = torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.PReLU(4), nn.PixelShuffle(2),
                    nn.Upsample(scale_factor=0.5, mode="bilinear"), nn.ReflectionPad2d(1), nn.InstanceNorm2d(1))
print(net)
x = torch.randn(2, 1, 4, 4)
y = net(x)
print(y.shape, y[0, 0, :2])
y.pow(2).sum().backward()
print(torch.round(net[0].weight.grad[0], decimals=2), net[2].weight.grad)
bil = nn.Bilinear(3, 2, 2)
print(bil.weight, bil(torch.ones(4, 3), torch.ones(4, 2))[0])
seq = torch.randn(2, 3, 8)
print(nn.MaxPool1d(2)(seq)[0], nn.AvgPool1d(3, 2)(seq)[1], nn.AdaptiveMaxPool1d(2)(seq)[0])
inorm = nn.InstanceNorm1d(3, affine=True, track_running_stats=True)
print(inorm(seq)[0, 0], inorm.running_mean, inorm.running_var)
_ = inorm.eval()
print(inorm(seq)[1, 2])
print(nn.RMSNorm(8)(seq)[0, 0], nn.LocalResponseNorm(2)(seq)[1, 1])
rr = nn.RReLU()
print(rr.eval()(seq)[0, 0])
print(nn.Upsample(size=5, mode="linear")(seq)[0, 0], nn.CircularPad1d((2, 1))(seq)[0, 1])
print(nn.TripletMarginLoss()(seq[0], seq[1], seq[0].flip(0)), nn.CosineSimilarity(dim=2)(seq, seq + 1)[0])
