import torch
x = torch.tensor([2.0, 3.0], requires_grad=True)
y = x ** 2
d = y.detach()
print(d.requires_grad, d.is_leaf, d.grad_fn)
z = d * x
z.sum().backward()
print(x.grad)
print(y.grad_fn, y.requires_grad)
y.detach_()
print(y.grad_fn, y.requires_grad, y.is_leaf)
