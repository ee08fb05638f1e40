import torch
x = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
y = torch.where(x > 0, x ** 2, -x)
print(y)
y.sum().backward()
print(x.grad)
x.grad = None
z = x.clamp(-1, 1)
z.sum().backward()
print(z, x.grad)
