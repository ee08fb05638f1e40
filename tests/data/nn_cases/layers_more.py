import torch
from torch import nn
_ = torch.manual_seed(0)
bl = nn.Bilinear(3, 4, 2)
bl
bl.weight[1]
bl.bias
x1 = torch.randn(5, 3, requires_grad=True)
x2 = torch.randn(5, 4)
y = bl(x1, x2)
y
y.sum().backward()
x1.grad
bl.bias.grad
nn.Bilinear(2, 2, 3, bias=False)(torch.ones(2, 2), torch.ones(2, 2)).shape
eb = nn.EmbeddingBag(10, 3)
eb
eb.weight[:2]
inp = torch.tensor([[1, 2, 4], [4, 3, 9]])
eb(inp).detach()
eb_sum = nn.EmbeddingBag(10, 3, mode='sum')
eb_sum(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4])).detach()
eb_max = nn.EmbeddingBag(10, 3, mode='max', padding_idx=2)
eb_max
out = eb_max(torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 2, 2, 5]))
out.detach()
out.sum().backward()
eb_max.weight.grad[4]
w = torch.tensor([0.5, 1.0, 2.0, 1.0])
eb_sum(torch.tensor([1, 2, 4, 5]), torch.tensor([0, 2]), per_sample_weights=w).detach()
nn.EmbeddingBag(10, 3, include_last_offset=True)(torch.tensor([1, 2, 4, 5]), torch.tensor([0, 1, 4])).shape
inorm = nn.InstanceNorm1d(3)
inorm
xi = torch.randn(2, 3, 5, requires_grad=True)
yi = inorm(xi)
yi[1]
yi.grad_fn
(yi * torch.arange(5.)).sum().backward()
xi.grad[0]
in2 = nn.InstanceNorm2d(2, affine=True, track_running_stats=True)
in2
list(in2.state_dict().keys())
img = torch.randn(3, 2, 4, 4)
in2(img)[0, 1]
in2.running_mean
in2.running_var
in2.num_batches_tracked
in2.eval()
in2(img)[1, 0, 0]
nn.InstanceNorm1d(3)(torch.randn(3, 6))[2]
bn3 = nn.BatchNorm3d(2)
bn3
v = bn3(torch.randn(2, 2, 2, 3, 3))
v[1, 1, 0]
bn3.running_mean
d2 = nn.Dropout2d(0.4)
d2
_ = torch.manual_seed(3)
d2(torch.ones(2, 4, 2, 2))[:, :, 0, 0]
d1 = nn.Dropout1d(0.5)
d1(torch.ones(3, 4, 2))[:, :, 0]
d1(torch.ones(4, 2))[:, 0]
nn.Dropout3d(0.5)(torch.ones(2, 3, 1, 1, 2))[..., 0, 0, 0]
ad = nn.AlphaDropout(0.2)
ad
xa = torch.randn(3, 4, requires_grad=True)
ya = ad(xa)
ya
ya.grad_fn
ya.sum().backward()
xa.grad
ad.eval()
torch.equal(ad(xa), xa)
nn.FeatureAlphaDropout(0.3)(torch.ones(2, 3, 2))[:, :, 0]
sm = nn.Softmax2d()
sm
sm(torch.randn(2, 3, 2, 2))[1, :, 0, 1]
sm(torch.randn(3, 2))
