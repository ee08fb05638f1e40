import torch
x = torch.ones(3)
x.fill_(torch.ones(3))
