# Second derivatives checked by finite differences: torch.autograd.gradgradcheck
import torch

torch.manual_seed(3)
x = torch.rand(2, 3, dtype=torch.double, requires_grad=True)
w = torch.rand(3, dtype=torch.double, requires_grad=True)
torch.autograd.gradgradcheck(lambda a: (a ** 3).sin(), x)
torch.autograd.gradgradcheck(lambda a, b: (a * b).exp().sum(1), (x, w))
# the random grad_outputs are drawn from the global generator, as PyTorch draws them
print(torch.rand(2))
g = torch.ones(2, 3, dtype=torch.double, requires_grad=True)
torch.autograd.gradgradcheck(torch.tanh, (x,), (g,))
print(torch.rand(2))


class Halves(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a / 2, a.exp()

    @staticmethod
    def backward(ctx, g1, g2):
        a, = ctx.saved_tensors
        return g1 * a + g2 * a.exp()


torch.autograd.gradcheck(Halves.apply, x)
torch.autograd.gradgradcheck(Halves.apply, x)


class Frozen(torch.autograd.Function):
    # first derivative right, second wrong: x.detach() hides x from the backward graph
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 2

    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensors
        return g * 2 * a.detach()


torch.autograd.gradcheck(Frozen.apply, x)
torch.autograd.gradgradcheck(Frozen.apply, x, raise_exception=False)
torch.autograd.gradgradcheck(Frozen.apply, x)
