import torch

class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        result = x ** 3
        dx = 3 * x ** 2
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        result = grad_output * dx + grad_dx * 6 * x
        return result

x = torch.tensor([1.0, 2.0, -0.5], requires_grad=True)
out, dx = MyCube.apply(x)
out, dx
out.sum().backward()
x.grad

class LegacyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result

y = torch.tensor([0.0, 1.0], requires_grad=True)
z = LegacyExp.apply(y)
z
z.sum().backward()
y.grad

class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None

w = torch.ones(3, requires_grad=True)
m = MulConstant.apply(w, 2.5)
m.sum().backward()
m, w.grad
