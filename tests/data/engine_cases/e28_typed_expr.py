import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2 * torch.exp(x)
y
y.sum().backward()
x.grad
x.grad == 2 * x * torch.exp(x) + x ** 2 * torch.exp(x)
(x.grad - (2 * x * torch.exp(x) + x ** 2 * torch.exp(x))).abs().max()
