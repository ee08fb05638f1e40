import torch
import torch.nn as nn
_ = torch.manual_seed(0)
dw = nn.Conv2d(6, 6, kernel_size=3, padding=1, groups=6)
dw.weight.shape
x = torch.randn(2, 6, 5, 5)
dw(x).shape
pw = nn.Conv2d(6, 12, kernel_size=1)
pw(dw(x)).shape
sum(p.numel() for p in dw.parameters()) + sum(p.numel() for p in pw.parameters())
bad = nn.Conv2d(6, 8, kernel_size=3, groups=4)
