import torch
x = torch.tensor([[1.0, 5.0], [3.0, 2.0]], requires_grad=True)
x.min().backward()
x.grad
x.min(0).values.sum().backward()
x.grad
torch.min(x, dim=1)[0].sum().backward()
x.grad
