import torch
v4 = torch.tensor(2.0)
v4[:1] = 1.0
