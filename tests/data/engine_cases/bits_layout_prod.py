# prod of views in PyTorch's order, and a sum of a permuted view with a kept dim of size 1 (every digit)
import torch
_ = torch.manual_seed(5)
a = torch.randn(40, 70) / 20 + 1
d = a.double()
a.prod(1).tolist()[:5]
a.t().prod(0).tolist()[:5]
a[:1].expand(300, 70).prod().item()
a[:, 3:50].prod().item()
d[:, 3:50].prod().item()
d.t().prod(1).tolist()[:5]
d[:2].expand(5, 2, 70).permute(2, 0, 1).prod().item()
b = torch.randn(70, 1, 16, 300).permute(2, 0, 1, 3)
b.sum((0, 1, 3)).tolist()
b.double().sum((0, 1, 3)).tolist()
