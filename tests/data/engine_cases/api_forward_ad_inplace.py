import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    base = fwAD.make_dual(torch.tensor([0.5, 1.0, -2.0]), torch.tensor([1.0, -1.0, 0.5]))
    acc = base * 1
    print(acc.mul_(3))
    print(acc)
    acc += base.sin()
    print(acc)
    buf = torch.zeros(3)
    buf.add_(base ** 2)
    print(buf)
    buf.clamp_(min=0.5)
    print(buf)
    plain = torch.ones(3)
    plain *= 4
    print(plain)
    print(fwAD.unpack_dual(buf).tangent)
