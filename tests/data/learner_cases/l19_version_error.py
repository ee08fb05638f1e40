import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
z = y * 2
print(z)
y.add_(1)
print(y)
z.sum().backward()
print(x.grad)
w = x.exp()
w.mul_(2)
w.sum().backward()
