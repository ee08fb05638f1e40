import torch
x = torch.ones(2, requires_grad=True)
torch.autograd.grad(x * 2, x)
