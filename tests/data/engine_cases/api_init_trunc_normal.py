import torch
import torch.nn as nn
torch.manual_seed(21)
patch = nn.Linear(6, 4)
nn.init.trunc_normal_(patch.weight, std=0.02)
print(patch.weight)
print(nn.init.trunc_normal_(torch.empty(2, 5), mean=0.5, std=1.0, a=-0.1, b=0.2))
print(nn.init.trunc_normal_(torch.empty(3, 3), mean=1.0, std=2.0, a=-1.0, b=2.5))
gen = torch.Generator().manual_seed(4)
print(nn.init.trunc_normal_(torch.empty(4, dtype=torch.float64), generator=gen))
print(torch.rand(2))
