import torch
a = torch.ones(2, 2, 3)
b = torch.ones(2, 1, 3)
a @ b
