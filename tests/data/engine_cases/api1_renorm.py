import torch
x = torch.tensor([[1., 2., 3.], [0.1, 0.2, 0.3], [-4., 0., 1.]], requires_grad=True)
y = x.renorm(2, 0, 1.5)
y
(y * torch.tensor([1., -1., 2.])).sum().backward()
x.grad
torch.renorm(x, 1, 1, 2.0)
w = torch.linspace(-2, 3, 60).reshape(12, 5)
w.renorm(2, 0, 1.5).sum()
z = torch.ones(2, 3)
z.renorm_(2, 0, 1.0)
z
try:
    x.renorm(-1, 0, 1)
except RuntimeError as e:
    print(e)
try:
    x.renorm(2, 0, -1)
except RuntimeError as e:
    print(e)
torch.ones(3).renorm(2, 0, 1)
