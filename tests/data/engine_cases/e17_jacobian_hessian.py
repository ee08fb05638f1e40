import torch
from torch.autograd.functional import jacobian, hessian
def f(x):
    return x ** 2 * torch.exp(x)
x = torch.tensor([0.5, -1.0, 2.0])
print(jacobian(f, x))
def g(x):
    return (x ** 3).sum()
print(hessian(g, x))
