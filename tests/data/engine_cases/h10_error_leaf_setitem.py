import torch
x = torch.zeros(3, requires_grad=True)
x[0] = 1.0
