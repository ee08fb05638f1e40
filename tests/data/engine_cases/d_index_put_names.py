import torch
z = torch.ones(3, 2, requires_grad=True)
v = torch.tensor(2.0, requires_grad=True)
w = z * 1
w[z > 0] = v
w
w.grad_fn.next_functions
w.sum().backward()
z.grad, v.grad
u = z * 1
u[[0, 2]] = 5.
u
u[:, [1]] = torch.tensor([[7.], [8.], [9.]])
u.grad_fn
u = z * 2
u[:] = v
u.grad_fn
u.grad_fn.next_functions
u[...] = torch.tensor([1., 2.])
u
u.grad_fn.name()
u = z * 3
u[0:5, :] = 0.5
u.grad_fn
u = z * 1
u.fill_(v)
u.grad_fn
u.sum().backward()
v.grad
