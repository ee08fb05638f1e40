import torch
torch.tensor([2.0, 3.0]).sum(dim=(0, -1))
