import torch
a = torch.ones(2, 2, 1)
a @ torch.ones(3)
