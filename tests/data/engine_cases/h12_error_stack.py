import torch
torch.stack([torch.ones(2), torch.ones(3)])
