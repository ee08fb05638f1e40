import torch
a = torch.ones(2)
b = torch.ones(2, requires_grad=True)
print((a + a).requires_grad, (a + b).requires_grad, (a * 2).grad_fn)
c = a + b
print(c.grad_fn.next_functions)
d = b.detach() + 1
print(d.requires_grad)
a.requires_grad = True
print(a.requires_grad, a.is_leaf)
(a * b).sum().backward()
print(a.grad, b.grad)
