import torch
from torch.autograd.functional import jacobian, hessian
def f(x):
    return x ** 2 + 3 * x
x = torch.tensor([1.0, 2.0, 3.0])
print(jacobian(f, x))
def g(v):
    return (v ** 3).sum()
print(hessian(g, x))
def two(a, b):
    return a * b
print(jacobian(two, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))
def rosen(p):
    return (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
print(hessian(rosen, torch.tensor([1.0, 1.0])))
J = jacobian(lambda t: torch.stack([t[0] * t[1], t[0] + t[1]]), torch.tensor([2.0, 5.0]))
print(J)
print(J.shape)
def lin(W):
    return W @ torch.tensor([1.0, -1.0])
print(jacobian(lin, torch.eye(2)).shape)
print(hessian(lambda t: t.sum(), torch.ones(2)))
def vector_output(x):
    return x * 2
hessian(vector_output, x)
