import torch
x = torch.tensor([-1.5, -0.2, 0.0, 0.3, 2.0, 30.0], requires_grad=True)
p = torch.tensor([0.01, 0.3, 0.5, 0.9], requires_grad=True)
s = torch.special
outs = [s.entr(x.abs()), s.erfcx(x), s.log_ndtr(x), s.ndtri(p), s.i0e(x), s.i1e(x), s.i1(x), s.xlog1py(x, x.abs())]
for o in outs:
    print(o)
sum(o.sum() for o in outs[1:3] + outs[4:]).backward()
s.ndtri(p).sum().backward()
print(x.grad, p.grad)
print(s.entr(torch.tensor([-1.0, 0.0, 0.5])), s.xlog1py(torch.tensor([0.0, 1.0]), torch.tensor([float("nan"), -0.5])))
