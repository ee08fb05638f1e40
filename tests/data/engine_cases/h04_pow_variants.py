import torch
x = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)
y = x ** 3
y.sum().backward()
print(y, x.grad)
x.grad = None
z = x ** 0.5
print(z)
w = x ** 0
print(w)
w.sum().backward()
print(x.grad)
t = torch.tensor([2.0, 3.0], requires_grad=True)
e = torch.tensor([2.0, 0.5], requires_grad=True)
p = t ** e
p.sum().backward()
print(p, t.grad, e.grad)
