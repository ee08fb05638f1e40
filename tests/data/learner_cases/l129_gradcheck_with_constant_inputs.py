import torch
from torch.autograd import gradcheck
class MulAdd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b, k):
        ctx.save_for_backward(a, b)
        ctx.k = k
        return a * b + k
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return g * b, g * a, None
a = torch.tensor([1., 2.], dtype=torch.double, requires_grad=True)
b = torch.tensor([3., 4.], dtype=torch.double, requires_grad=True)
print(gradcheck(MulAdd.apply, (a, b, 10.0)))
print(gradcheck(MulAdd.apply, (a, b.detach(), 1.0)))
print(gradcheck(lambda k, x: x * k, (3.0, a)))
print(gradcheck(lambda x, n: x ** n, (a, 3)))
class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k):
        ctx.k = k
        return a * k
    @staticmethod
    def backward(ctx, g):
        return g, None
print(gradcheck(Wrong.apply, (a, 2.0), raise_exception=False))
gradcheck(Wrong.apply, (a, 2.0))
