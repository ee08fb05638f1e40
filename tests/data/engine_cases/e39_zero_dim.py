import torch
a = torch.tensor(0.5, requires_grad=True)
b = torch.tensor(-1.5, requires_grad=True)
c = a * b + torch.tanh(a) - b.exp() / (a * a + 1)
print(c)
c.backward()
print(a.grad, b.grad)
print(a.shape, a.dim(), c.item())
