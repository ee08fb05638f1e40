import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.clone()
y[0] *= 2
print(y)
y.sum().backward()
print(x.grad)
z = x * 1
v = z[1:]
v.mul_(10)
print(z, z.grad_fn)
z.sum().backward()
print(x.grad)
