import torch
import torch.nn.functional as F
_ = torch.manual_seed(0)
x = torch.arange(12.).view(3, 4)
F.dropout(x.t(), 0.5)
y = torch.arange(24.).view(2, 3, 4).permute(1, 2, 0)
F.dropout(y, 0.5)
F.dropout(torch.arange(24.).view(4, 6)[:, ::2], 0.5)
F.dropout(torch.ones(1, 3, 1, 2).transpose(1, 3), 0.3)
