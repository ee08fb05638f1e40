import torch
a = torch.arange(3)
a // 2
a // a
