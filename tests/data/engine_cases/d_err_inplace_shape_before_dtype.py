import torch
x = torch.ones(3, 1, dtype=torch.long)
x.add_(torch.ones(3, 7))
