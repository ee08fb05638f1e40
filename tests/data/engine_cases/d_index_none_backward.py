import torch
x = torch.ones(2, requires_grad=True)
x[:, None].sum().backward()
x.grad
x[None].sum().backward()
x.grad
x[..., None].sum().backward()
x.grad
y = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
(y[:, None, 1:] * torch.tensor([[[2.0]], [[3.0]]])).sum().backward()
y.grad
x[:, None].grad_fn.name()
y[None, :, 0].grad_fn.name()
