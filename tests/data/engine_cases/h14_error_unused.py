import torch
a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
torch.autograd.grad((a * 2).sum(), [a, b])
