import torch
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(-3.0, requires_grad=True)
c = a * b
c.retain_grad()
d = c + a
e = d.relu()
e.retain_grad()
f = e * 2 + c
f.backward()
print(a.grad, b.grad, c.grad, e.grad)
print(d.grad)
print(f.grad_fn, f.grad_fn.next_functions)
print(c.is_leaf, a.is_leaf, c.requires_grad)
