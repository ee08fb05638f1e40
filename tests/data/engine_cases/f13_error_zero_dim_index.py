import torch
x = torch.tensor(3.0)
x[0]
