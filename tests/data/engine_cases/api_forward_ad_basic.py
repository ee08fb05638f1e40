import torch.autograd.forward_ad as fwAD
_ = torch.manual_seed(7)
primal = torch.randn(3, 3)
direction = torch.randn(3, 3)

def g(u, v):
    return u ** 3 - 2 * v * u + v.cos()

with fwAD.dual_level():
    dual = fwAD.make_dual(primal, direction)
    print(fwAD.unpack_dual(dual).tangent is direction)
    alt = fwAD.make_dual(primal, direction.T)
    print(fwAD.unpack_dual(alt).tangent is direction)
    other = torch.randn(3, 3)
    res = g(dual, other)
    print(res)
    jvp = fwAD.unpack_dual(res).tangent
    print(jvp.tolist())
    s = res.sum()
    print(s)
    m = torch.tanh(dual).mean(dim=1)
    print(m)
    print(fwAD.unpack_dual(dual @ other.t()).tangent)
    print(fwAD.unpack_dual(torch.cat([dual, other])[1:4]).tangent)
    print(fwAD.unpack_dual(other * 2).tangent is None)
fwAD.unpack_dual(res).tangent is None
res
fwAD.unpack_dual(primal)
