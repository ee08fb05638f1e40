import torch.autograd.forward_ad as fwAD

class Exp2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        out = torch.exp(inp)
        ctx.out = out
        return out

    @staticmethod
    def jvp(ctx, t_in):
        t_out = t_in * ctx.out
        del ctx.out
        return t_out

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        ctx.save_for_forward(inp)
        ctx.save_for_backward(inp)
        return inp ** 3

    @staticmethod
    def backward(ctx, g):
        inp, = ctx.saved_tensors
        return 3 * inp ** 2 * g

    @staticmethod
    def jvp(ctx, t_in):
        inp, = ctx.saved_tensors
        return 3 * inp ** 2 * t_in

_ = torch.manual_seed(5)
p = torch.randn(3, 2, dtype=torch.double, requires_grad=True)
d = torch.randn(3, 2, dtype=torch.double)
with fwAD.dual_level():
    o = Exp2.apply(fwAD.make_dual(p, d))
    print(fwAD.unpack_dual(o).tangent)
    c = Cube.apply(fwAD.make_dual(p.detach(), d))
    print(c)
torch.autograd.gradcheck(Exp2.apply, (p,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False)
torch.autograd.gradcheck(Cube.apply, (p,), check_forward_ad=True)
Cube.apply(p).sum().backward()
p.grad
Exp2.apply(p).sum().backward()
