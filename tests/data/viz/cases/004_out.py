# from 004 (PyTorch's autograd tutorial): out = z.mean(), x.grad = 4.5 everywhere; root: out
import torch
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
