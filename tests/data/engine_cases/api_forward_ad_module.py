import torch.nn as nn
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call
_ = torch.manual_seed(11)
net = nn.Linear(4, 2)
x = torch.randn(6, 4)
named = dict(net.named_parameters())
dirs = {k: torch.rand_like(v) for k, v in named.items()}
with fwAD.dual_level():
    for k, v in named.items():
        delattr(net, k)
        setattr(net, k, fwAD.make_dual(v.detach(), dirs[k]))
    y = net(x)
    t1 = fwAD.unpack_dual(y).tangent
t1
fresh = nn.Linear(4, 2)
with fwAD.dual_level():
    duals = {k: fwAD.make_dual(v.detach(), dirs[k]) for k, v in named.items()}
    y2 = functional_call(fresh, duals, (x,))
    t2 = fwAD.unpack_dual(y2).tangent
torch.equal(t1, t2)
torch.allclose(t1, t2)
with fwAD.dual_level():
    h = fwAD.make_dual(torch.randn(2, 4), torch.ones(2, 4))
    out = torch.relu(nn.functional.linear(h, named["weight"].detach(), named["bias"].detach()))
    print(fwAD.unpack_dual(out).tangent)
    print(fwAD.unpack_dual(torch.sigmoid(h).sum(dim=0)).tangent)
