import torch
a = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
b = torch.tensor([[0.5, -1., 2.], [1.5, 0.25, -0.75]], requires_grad=True)
c = a @ b
print(c)
c.sum().backward()
print(a.grad)
print(b.grad)
v = torch.tensor([1., -1.], requires_grad=True)
w = a @ v
print(w)
w.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
print(a.grad)
print(torch.mm(a, b).grad_fn)
print(torch.mv(a, v).grad_fn.name())
