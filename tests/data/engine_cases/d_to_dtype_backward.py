import torch
y = torch.tensor([1.0, 2.0], requires_grad=True)
c = y.double()
c
c.grad_fn
c.backward(torch.tensor([3.0, 0.5], dtype=torch.float64))
y.grad
y.to(torch.float64).sum().backward()
y.grad
z = torch.tensor([1.5], dtype=torch.float64, requires_grad=True)
(z.float() * 2).sum().backward()
z.grad
