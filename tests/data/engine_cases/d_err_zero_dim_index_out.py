import torch
x5 = torch.ones(()) / -2
x5[10]
