import torch
x = torch.ones(2, 3)
x.mean(1, keepdim=True)
x.max(keepdim=True)
