import torch
v = torch.tensor(2.0)
v.squeeze(0)
v.squeeze(4)
