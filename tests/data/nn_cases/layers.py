import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
conv = nn.Conv2d(2, 3, 3, padding=1)
conv
conv.weight[0, 0]
conv.bias
img = torch.randn(2, 2, 5, 5, requires_grad=True)
out = conv(img)
out.shape
out[0, 0]
out.sum().backward()
img.grad[1, 1]
conv.weight.grad[2, 1]
conv.bias.grad
nn.Conv2d(1, 6, 5)
nn.Conv2d(3, 4, (3, 2), stride=2, dilation=1, bias=False)
c1 = nn.Conv1d(2, 4, 3, stride=2, padding=1)
c1
y = c1(torch.randn(3, 2, 9))
y.shape
y[0]
nn.Conv1d(2, 4, 3)(torch.randn(2, 7)).shape
pool = nn.MaxPool2d(2)
pool
m = pool(img)
m[0, 1]
m.sum().backward()
img.grad[0, 0]
nn.MaxPool2d(3, stride=2, padding=1)(img)[1, 0]
nn.MaxPool2d(2, ceil_mode=True)(img).shape
nn.AvgPool2d(2)
a = nn.AvgPool2d(3, stride=2, padding=1)(img)
a[0, 0]
img.grad = None
a.sum().backward()
img.grad[0, 1]
F.avg_pool2d(img, 2, count_include_pad=False, padding=1)[0, 0]
F.max_pool2d(img, 2, return_indices=True)[1][0, 0]
emb = nn.Embedding(10, 3)
emb
emb.weight[:2]
idx = torch.tensor([[1, 2, 4], [4, 3, 9]])
e = emb(idx)
e
(e * torch.arange(3.)).sum().backward()
emb.weight.grad[4]
nn.Embedding(5, 2, padding_idx=0).weight
ln = nn.LayerNorm(4)
ln
x = torch.randn(3, 4, requires_grad=True)
z = ln(x)
z
(z * torch.arange(4.)).sum().backward()
x.grad
ln.weight.grad
nn.LayerNorm([2, 4], elementwise_affine=False)(torch.randn(3, 2, 4))[0]
bn = nn.BatchNorm1d(4)
bn
x.grad = None
b = bn(x)
b
(b * torch.randn(3, 4)).sum().backward()
x.grad
bn.running_mean
bn.running_var
bn.num_batches_tracked
bn.state_dict().keys()
bn.eval()
bn(x)
nn.BatchNorm1d(2, affine=False)(torch.randn(4, 2, 3))[0]
for m in [nn.GELU(), nn.GELU(approximate='tanh'), nn.ELU(alpha=0.5), nn.SiLU(), nn.Softplus(beta=2), nn.Hardtanh(-2, 2), nn.ReLU6(), nn.LeakyReLU(0.2), nn.Sigmoid(), nn.Tanh(), nn.ReLU(), nn.Softmax(dim=1), nn.LogSoftmax(dim=1), nn.Identity(), nn.Dropout(0.2), nn.Flatten(), nn.SELU(), nn.Mish()]:
    print(m, m(x)[0])
nn.Unflatten(1, (2, 2))(x).shape
nn.Unflatten(1, (2, 2))
for L in [nn.MSELoss(), nn.L1Loss(), nn.SmoothL1Loss(), nn.HuberLoss(delta=0.5), nn.BCEWithLogitsLoss(), nn.KLDivLoss(reduction='batchmean')]:
    print(L, L(x, torch.rand(3, 4)))
nn.BCELoss()(torch.rand(3, 4), torch.rand(3, 4))
nn.CrossEntropyLoss(label_smoothing=0.1)(x, torch.tensor([0, 3, 1]))
nn.NLLLoss()(F.log_softmax(x, dim=1), torch.tensor([0, 3, 1]))
