# The is_leaf table of the autograd docs, requires_grad_ on non-leaves and integer tensors.
import torch
torch.manual_seed(0)
a = torch.rand(10, requires_grad=True)
b = torch.rand(10, requires_grad=True).double()
c = torch.rand(10, requires_grad=True) + 2
d = torch.rand(10).requires_grad_()
e = torch.rand(10)
f = torch.rand(10, requires_grad=True).float()
g = torch.nn.Linear(2, 2).weight
h = a[:3]
print([t.is_leaf for t in (a, b, c, d, e, f, g, h)])
print([t.requires_grad for t in (a, b, c, d, e, f, g, h)])
print(b.grad_fn, c.grad_fn, h.grad_fn, type(g))
y = a * 2
try:
    y.requires_grad_(False)
except RuntimeError as err:
    print(err)
y.requires_grad_(True)
try:
    y.requires_grad = False
except RuntimeError as err:
    print(err)
try:
    torch.tensor([1, 2, 3]).requires_grad_()
except RuntimeError as err:
    print(err)
try:
    torch.arange(3, requires_grad=True)
except RuntimeError as err:
    print(err)
try:
    torch.ones(2, dtype=torch.long, requires_grad=True)
except RuntimeError as err:
    print(err)
y.sum().backward()
print(y.grad, a.grad[:3])
