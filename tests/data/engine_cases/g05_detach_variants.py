import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2 + 3
c = y.detach()
z = c * x
z.sum().backward()
print(x.grad)
print(c.requires_grad, y.requires_grad)
c[0] = 100
print(y)
