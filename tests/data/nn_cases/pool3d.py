import torch
import torch.nn as nn
import torch.nn.functional as F
_ = torch.manual_seed(0)
x = torch.randn(2, 3, 5, 6, 7, requires_grad=True)
m = F.max_pool3d(x, 2)
m.shape, m.grad_fn
m[0, 0]
y, idx = F.max_pool3d(x, (2, 3, 2), stride=(1, 2, 2), padding=1, return_indices=True)
y.shape
idx[1, 2]
y.sum().backward()
x.grad[0, 1, 1]
x.grad = None
a = F.avg_pool3d(x, 3, stride=2, padding=1)
a.grad_fn
a[1, 2].tolist()
(a * a).sum().backward()
x.grad[1, 0, 2].tolist()
x.grad = None
b = F.avg_pool3d(x, 2, ceil_mode=True, count_include_pad=False)
b.shape
b[0, 1].tolist()
c = F.avg_pool3d(x, 2, divisor_override=3)
c[0, 0, 0].tolist()
d = F.adaptive_avg_pool3d(x, (2, 4, 3))
d.grad_fn, d.shape
d[1, 1].tolist()
(d ** 2).sum().backward()
x.grad[0, 2, 3].tolist()
x.grad = None
e, ei = F.adaptive_max_pool3d(x, (3, 2, 4), return_indices=True)
e.grad_fn
e[0, 1]
ei[1, 0]
e.sum().backward()
x.grad[1, 1, 4]
x.grad = None
F.adaptive_avg_pool3d(x, 1).shape
F.adaptive_max_pool3d(x, (None, 2, 2)).shape
l = F.lp_pool3d(x.detach().abs() + 0.1, 2, 2)
l[0, 0].tolist()
pool = nn.MaxPool3d(2, return_indices=True)
unpool = nn.MaxUnpool3d(2)
x4 = x[:, :, :4, :6, :6]
p, pi = pool(x4)
u = unpool(p, pi)
u.shape, u.grad_fn
u[0, 0, 1]
u.sum().backward()
x.grad.sum()
nn.MaxPool3d(3, stride=2), nn.AvgPool3d(2), nn.AdaptiveAvgPool3d((1, 2, 3)), nn.AdaptiveMaxPool3d(2), nn.LPPool3d(2, 3), unpool
nn.AvgPool3d((2, 2, 2), stride=1, padding=1)(x).shape
nn.LPPool3d(1.5, 2)(x.detach().abs())[0, 0, 0]
v = torch.randn(4, 6, 6, 6)
F.max_pool3d(v, 3).shape
F.avg_pool3d(v, 2).shape
try:
    F.max_pool3d(torch.randn(3, 4, 4), 2)
except RuntimeError as err:
    print(err)
try:
    F.max_pool3d(v, 3, padding=2)
except RuntimeError as err:
    print(err)
try:
    F.max_pool3d(v, 7)
except RuntimeError as err:
    print(err)
