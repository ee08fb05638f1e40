# A gradient multiplied or divided by an integer tensor stays float32 (PyTorch's promotion),
# so the batch norm backward after it runs its float32 kernel (every digit)
import torch
from torch import nn
bn = nn.BatchNorm1d(3)
x = torch.tensor([[0.5, -1.25, 2.0], [1.5, 0.75, -0.5], [-2.0, 0.25, 1.0]], requires_grad=True)
y = bn(x)
(y * torch.arange(9).reshape(3, 3)).sum().backward()
x.grad.tolist()
bn.weight.grad.tolist()
x.grad = None
(bn(x) / torch.arange(1, 10).reshape(3, 3)).sum().backward()
x.grad.tolist()
