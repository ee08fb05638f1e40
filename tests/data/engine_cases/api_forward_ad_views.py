import torch.autograd.forward_ad as fwAD
w = torch.tensor([1.0, 2.0, -0.5], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(w, torch.tensor([1.0, -1.0, 2.0]))
    sq = d * d
    print(sq)
    print(fwAD.unpack_dual(sq).tangent.requires_grad)
    plain = torch.tensor([3.0, 4.0])
    print(fwAD.unpack_dual(plain).primal is plain, fwAD.unpack_dual(plain).tangent)
    print(d[1])
    print(list(d))
    print(d.split(2))
sq.sum().backward()
w.grad
