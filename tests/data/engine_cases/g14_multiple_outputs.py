import torch
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
a, b = x.split(2)
print(a, b)
(a * 2 + b * 3).sum().backward()
print(x.grad)
p, q = x.chunk(2)
print(p.grad_fn.name())
rows = torch.arange(6.).reshape(2, 3).unbind(0)
rows
