import torch
import torch.nn as nn
import torch.nn.functional as F
_ = torch.manual_seed(3)
x = torch.randn(2, 3, 9, 11, requires_grad=True)
y = F.fractional_max_pool2d(x, 2, output_size=(5, 6))
y.shape, y.grad_fn
y[0, 0]
y[1, 2].tolist()
y2, i2 = F.fractional_max_pool2d(x, (3, 2), output_ratio=(0.5, 0.5), return_indices=True)
y2.shape
i2[0, 1]
(y2 * y2).sum().backward()
x.grad[1, 0]
torch.randn(2)
pool = nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5))
pool
pool(x.detach()[0])[1]
v = torch.randn(1, 2, 6, 7, 8, requires_grad=True)
z = F.fractional_max_pool3d(v, 2, output_size=3)
z.shape, z.grad_fn
z[0, 1]
z3, i3 = nn.FractionalMaxPool3d((2, 3, 2), output_ratio=0.5, return_indices=True)(v)
z3.shape
i3[0, 0]
z3.sum().backward()
v.grad.sum(), (v.grad != 0).sum()
w = torch.randn(4, 10, 10, dtype=torch.float64)
F.fractional_max_pool2d(w, 3, output_size=4)[2]
try:
    F.fractional_max_pool2d(x, 2)
except ValueError as e:
    print(e)
try:
    F.fractional_max_pool2d(x, 2, output_ratio=0.5)
except TypeError as e:
    print(e)
