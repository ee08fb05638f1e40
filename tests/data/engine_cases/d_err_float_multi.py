import torch
v = torch.ones(3, 2)
float(v)
