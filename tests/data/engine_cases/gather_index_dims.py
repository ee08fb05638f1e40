import torch
torch.zeros(2, 3).gather(0, torch.tensor([1]))
