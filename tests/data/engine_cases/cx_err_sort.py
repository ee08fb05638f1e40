import torch
torch.sort(torch.tensor([1+2j, 1j]))
