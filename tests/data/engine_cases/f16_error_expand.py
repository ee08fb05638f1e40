import torch
torch.ones(3).expand(2, 4)
