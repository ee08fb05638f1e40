import torch.autograd.forward_ad as fwAD
x = torch.tensor([1.0, -2.0, 0.5])

class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2

try:
    fwAD.make_dual(x, torch.ones(3))
except RuntimeError as e:
    print(e)
with fwAD.dual_level():
    try:
        fwAD.make_dual(x, torch.ones(2))
    except RuntimeError as e:
        print(e)
    try:
        fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1, 2]))
    except ValueError as e:
        print(e)
    try:
        with fwAD.dual_level():
            pass
    except RuntimeError as e:
        print(e)
    s = fwAD.make_dual(torch.tensor(2.0, dtype=torch.float64), torch.tensor(0.5, dtype=torch.float64))
    print(s * s)
    print(Twice.apply(torch.ones(2)))
    print(Twice.apply(fwAD.make_dual(x, torch.ones(3))))
