import torch
y3 = torch.ones(2, 3, requires_grad=True)
b1 = torch.ones(2, 1, 3, requires_grad=True)
y3 @ b1
