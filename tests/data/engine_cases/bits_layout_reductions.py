# Reductions of non-contiguous views in PyTorch's order, float32 and float64 (every digit)
import torch
_ = torch.manual_seed(3)
a = torch.randn(37, 45) * 3 + 1
d = a.double()
a.t().sum(1).tolist()[:6]
a.t().mean(0).tolist()[:6]
a[:, :1].expand(37, 45).sum().item()
a[:1].expand(37, 45).mean(0).tolist()[:6]
d.t().sum(1).tolist()[:6]
d[::2, 1:].sum(0).tolist()[:6]
d.reshape(37, 5, 9).permute(2, 0, 1).sum((0, 2)).tolist()[:6]
d.t().var(1).tolist()[:6]
d.std(0).tolist()[:6]
d.var().item()
d.t().std().item()
torch.var_mean(d, 1)[1].tolist()[:6]
torch.std_mean(d)
torch.var_mean(a.t(), 0)[1].tolist()[:6]
torch.var_mean(a, correction=0)
x = torch.randn(6, 4, dtype=torch.float64)
b = torch.randn(6, 1, dtype=torch.float64, requires_grad=True)
(x.t() * b.t()).sum().backward()
b.grad.flatten().tolist()
