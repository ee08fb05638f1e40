import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(4)
# norms of p other than 0, 1, 2, inf: NormOps (std::pow(|x|, p) added one by one, then pow(., 1/p))
x = torch.randn(5, 37)
for p in (3, 4, 0.5, 1.5, -1):
    torch.linalg.vector_norm(x, p).item()
    torch.norm(x, p, dim=1).tolist()
    torch.linalg.vector_norm(x, p, dim=0).tolist()
x.double().norm(3).item()
# group_norm: GroupNormKernel.cpp's forward and backward, float32
gn = nn.GroupNorm(4, 24)
with torch.no_grad():
    gn.weight.mul_(torch.rand(24) + 0.5)
    gn.bias.add_(torch.randn(24))
x = (torch.randn(3, 24, 5, 3) * 2 + 0.5).requires_grad_()
y = gn(x)
y.sum().item()
y[0, :3].tolist()
(y * torch.randn_like(y)).sum().backward()
x.grad[1, 5].tolist()
gn.weight.grad.tolist()
gn.bias.grad.tolist()
z = torch.randn(2, 6, 11, requires_grad=True)
out = F.group_norm(z, 3)
out.tolist()
out.pow(2).sum().backward()
z.grad.tolist()
# float64: RowwiseMoments at 4 lanes, its map2_reduce_all fusing the partial last vector
gd = nn.GroupNorm(3, 12).double()
xd = (torch.randn(2, 12, 9, dtype=torch.float64) * 2 + 0.5).requires_grad_()
yd = gd(xd)
yd[1].tolist()
(yd * torch.randn_like(yd)).sum().backward()
xd.grad[0].tolist()
gd.weight.grad.tolist()
# norm_backward's operands in its order, the powers with the pow kernel's special cases
for p in (3, 4, 0.5, 1.5, -1):
    for dt in (torch.float32, torch.float64):
        w = (torch.randn(6, 11, dtype=dt) * 2).requires_grad_()
        torch.linalg.vector_norm(w, p).backward(torch.tensor(0.7, dtype=dt))
        print(p, w.grad[0].tolist())
        w.grad = None
        (torch.norm(w, p, dim=1) * torch.arange(6, dtype=dt)).sum().backward()
        print(p, w.grad[1].tolist())
