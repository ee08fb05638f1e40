import torch
torch.histogram(torch.tensor([1, 2, 2]), 2)
