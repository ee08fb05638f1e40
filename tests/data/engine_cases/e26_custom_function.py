import torch
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return 2 * x * grad
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = Square.apply(x)
print(y.requires_grad)
y.sum().backward()
print(x.grad)
