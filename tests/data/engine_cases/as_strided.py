import torch
x = torch.arange(12.).requires_grad_()
v = torch.as_strided(x, (3, 3), (2, 1))
v
v.stride(), v.storage_offset(), v.is_contiguous()
w = x.as_strided((2, 2), (1, 2), 3)
w
(v * torch.arange(9.).reshape(3, 3)).sum().backward()
x.grad
y = torch.arange(6.).reshape(2, 3)
y.t().as_strided((2, 2), (1, 1))
y[1].as_strided((2,), (1,))
y[1].as_strided((2,), (1,), 0)
z = torch.zeros(6)
torch.as_strided_scatter(z, torch.ones(2, 2), (2, 2), (1, 2), 1)
a = torch.randn(4, dtype=torch.float64).requires_grad_()
s = torch.tensor([[5., 6.], [7., 8.]], dtype=torch.float64, requires_grad=True)
r = torch.as_strided_scatter(a, s, (2, 2), (1, 2))
r
(r * torch.arange(4.)).sum().backward()
a.grad, s.grad
b = torch.arange(6.)
b.as_strided_((2, 2), (2, 1), 1)
b
b.shape, b.stride()
c = torch.arange(5.)
try:
    c.as_strided((3, 3), (2, 1))
except RuntimeError as e:
    print(e)
try:
    c.as_strided((3, 3), (2, 1, 1))
except RuntimeError as e:
    print(e)
try:
    c.as_strided((3, -3), (2, 1))
except RuntimeError as e:
    print(e)
try:
    c.as_strided((2, 2), (2, -1))
except RuntimeError as e:
    print(e)
c.as_strided((2, 2), (0, 1))
e = torch.ones(2, 3, requires_grad=True)
e.expand(4, 2, 3).as_strided((2, 2), (1, 1)).sum().backward()
e.grad
l = torch.ones(3, requires_grad=True)
try:
    l.as_strided_((2,), (1,))
except RuntimeError as err:
    print(err)
