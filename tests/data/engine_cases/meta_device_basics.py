import torch
import torch.nn as nn
import torch.nn.functional as F
_ = torch.manual_seed(0)
y = torch.randn(4, 5, device="meta")
m = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 2)).to(torch.device("meta"))
m
m[0].weight
m[0].bias.device
out = m(y)
out
loss = out.sum()
loss.backward()
m[0].weight.grad
y.T
y.mT.shape
y[0]
y[:, 1:3]
-y
y > 0
y.dtype
y.to(torch.float64)
y.to("meta", torch.int32)
y.float()
torch.cat([y, y], dim=1).shape
torch.stack([y, y]).shape
y.view(20)
y.reshape(2, 10).sum(1)
F.softmax(y, dim=-1)
F.relu(y)
y.mean()
y.max(dim=1)
torch.zeros_like(y)
torch.ones(3, 4, device=torch.device("meta")).dtype
x = torch.randn(2, 3)
x
with torch.device("meta"):
    z = torch.randn(3, 3)
    lin = nn.Linear(3, 2)
z
lin.weight
torch.randn(2)
y.is_meta
y.is_leaf
y.requires_grad_()
y.size()
y.numel()
y.stride()
print(y)
print(f"{y.shape}")
