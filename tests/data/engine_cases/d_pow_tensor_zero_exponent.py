import torch
y1 = torch.eye(2, requires_grad=True)
y2 = y1 / 5
z3 = torch.pow(y2, y1)
z3
z3.mean().backward()
y1.grad
b = torch.tensor([0.0, 2.0], requires_grad=True)
e = torch.tensor([0.0, 0.0], requires_grad=True)
(b ** e).sum().backward()
b.grad, e.grad
