import torch
torch.tensor([5, 7]) % torch.tensor([2, 0])
