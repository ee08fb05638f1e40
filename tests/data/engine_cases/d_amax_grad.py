import torch
x = torch.tensor([[2.0, 2.0, 1.0], [0.5, 3.0, -1.0]], requires_grad=True)
x.amax(1)
x.amax(1).grad_fn.name()
x.amax()
x.amax(dim=-1, keepdim=True)
x.amax(1).sum().backward()
x.grad
x.grad = None
x.amax().backward()
x.grad
