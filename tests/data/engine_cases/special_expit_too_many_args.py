import torch
torch.special.expit(torch.ones(2), 1, 2)
