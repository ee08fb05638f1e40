# from 004: requires_grad_ on a computed tensor, then b = (a * a).sum(); root: b
import torch
torch.manual_seed(0)
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
a.requires_grad_(True)
b = (a * a).sum()
