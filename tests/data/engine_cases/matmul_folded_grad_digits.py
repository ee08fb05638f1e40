import torch
# a batch of sequences through a weight matrix, as makemore part 5's Linear layers do:
# PyTorch folds (32, 4, 48) @ (48, 64) into one mm, forward and backward
g = torch.Generator().manual_seed(2147483647)
x = torch.randn(32, 4, 48, generator=g, requires_grad=True)
w = torch.randn(48, 64, generator=g) / 48**0.5
w.requires_grad = True
y = x @ w
v = torch.randn(32, 4, 64, generator=g)
loss = (y * v).mean()
loss.backward()
loss.item()
w.grad[0, :6].tolist()
w.grad[47, -6:].tolist()
x.grad[0, 0, :6].tolist()
x.grad[31, 3, -6:].tolist()
w.grad.sum().item(), x.grad.abs().sum().item()
