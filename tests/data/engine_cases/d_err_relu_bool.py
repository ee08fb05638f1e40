import torch
torch.tensor([True, False]).relu()
