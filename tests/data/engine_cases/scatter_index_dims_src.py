import torch
torch.zeros(4).scatter(0, torch.tensor([1]), torch.tensor([[1.]]))
