import torch
z = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
v = torch.tensor(10., requires_grad=True)
w = z * 1
w[0][1] = v
w
w.grad_fn
w.sum().backward()
z.grad
v.grad
y = z * 2
r = y[1]
r[[0]] = v * 3
y
r.grad_fn
(y * y).sum().backward()
z.grad
v.grad
