import torch
x = torch.ones(2, 3, requires_grad=True)
answers = [torch.ones(3), torch.ones(1, 1, 3), torch.ones(4, 2, 3), torch.ones(3, 2),
           torch.ones(2, 3, dtype=torch.float64), torch.ones(2, 1), torch.ones(2, 3, dtype=torch.int64),
           [1.0], torch.tensor(2.0)]
for ans in answers:
    x.grad = None
    class Give(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, k):
            ctx.answer = ans
            return a * k
        @staticmethod
        def backward(ctx, g):
            return ctx.answer, None
    try:
        Give.apply(x, 2.0).sum().backward()
        print("ok", x.grad.shape, x.grad.dtype, x.grad.sum())
    except RuntimeError as e:
        print(e)
class Extra(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, k):
        return a * k
    @staticmethod
    def backward(ctx, g):
        return g * 2, torch.ones(1)
Extra.apply(x, 3).sum().backward()
