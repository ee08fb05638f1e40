import torch
torch.tensor([1+2j]).sign()
