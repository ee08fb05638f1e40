import torch
import torch.nn as nn
import torch.nn.functional as F
_ = torch.manual_seed(0)
localization = nn.Sequential(nn.Conv2d(1, 4, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
fc_loc = nn.Sequential(nn.Linear(4 * 3 * 3, 6))
fc_loc[0].weight.data.zero_()
fc_loc[0].bias.data.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
def stn(x):
    xs = localization(x)
    xs = xs.view(-1, 4 * 3 * 3)
    theta = fc_loc(xs)
    theta = theta.view(-1, 2, 3)
    grid = F.affine_grid(theta, x.size(), align_corners=False)
    return F.grid_sample(x, grid, align_corners=False)
x = torch.randn(2, 1, 8, 8)
out = stn(x)
out.shape, torch.allclose(out, x, atol=1e-6)
theta = torch.tensor([[[0.8, -0.3, 0.1], [0.3, 0.8, -0.2]]], requires_grad=True)
grid = F.affine_grid(theta, (1, 1, 3, 4), align_corners=False)
grid
img = torch.arange(20.0).reshape(1, 1, 4, 5).requires_grad_()
y = F.grid_sample(img, grid, align_corners=False)
y
F.grid_sample(img, grid, mode="nearest", padding_mode="border", align_corners=True)
y.sum().backward()
img.grad
theta.grad
(stn(x) ** 2).mean().backward()
fc_loc[0].bias.grad
