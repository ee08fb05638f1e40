# detach_() of a non-leaf a later op saved as an input: backward through that op refuses it;
# saved as an op's own output (exp) or detached before use, it is fine (seed tutorial 001).
import torch
x = torch.ones(2, requires_grad=True)
y = x ** 2 + 3
c = y.detach_()
z = y * x
z.sum().backward()
print(x.grad == c, x.grad)
x = torch.ones(2, requires_grad=True)
y = x ** 2 + 3
z = y * x
y.detach_()
try:
    z.sum().backward()
except RuntimeError as e:
    print(e)
print(x.grad, y.requires_grad, y.grad_fn, y.is_leaf)
x3 = torch.ones(2, requires_grad=True)
y3 = x3.exp()
z3 = y3.sum()
y3.detach_()
z3.backward()
print(x3.grad)
h = x3 * 2
e2 = h.exp()
h.detach_()
e2.sum().backward()
print(x3.grad)
h = x3 + 1
r = h + x3
h.detach_()
print(torch.autograd.grad(r.sum(), x3))
h = x3 * 2
q = h * h
h.detach_()
torch.autograd.grad(q.sum(), x3)
