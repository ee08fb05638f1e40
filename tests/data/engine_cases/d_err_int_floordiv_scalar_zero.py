import torch
a = torch.arange(3)
a // 0
