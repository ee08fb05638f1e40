import torch
y = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
x = torch.tensor([3.0, -1.0, 0.0], requires_grad=True)
a = torch.atan2(y, x)
a
y.atan2(x)
(a * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
y.grad
x.grad
w = y * 1
w.atan2_(x)
w.grad_fn.name()
torch.arctan2(y, torch.tensor(2.0))
torch.tensor([1, 2]).atan2(torch.tensor([3, 4]))
g, = torch.autograd.grad(torch.atan2(y, x).sum(), y, create_graph=True)
torch.autograd.grad(g.sum(), x)
torch.atan2(y, 2.0)
