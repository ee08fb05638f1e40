import torch
b = torch.tensor([1.5, 2.5]) > 2
b.ceil()
