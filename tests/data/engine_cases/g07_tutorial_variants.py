import torch
x = torch.ones(2, 2, requires_grad=True)
y = x * 3 + 1
z = y * y * 2
out = z.mean()
print(y, z, out, sep="\n")
print(y.grad_fn, z.grad_fn.name(), out.grad_fn.name())
out.backward()
print(x.grad)
a = torch.tensor([[2.0, 3.0], [4.0, 5.0]])
a = (a * 3) / (a - 1)
print(a)
print(a.requires_grad)
a.requires_grad_(True)
print(a.requires_grad)
b = (a * a).sum()
print(b.grad_fn)
b.backward()
print(a.grad)
