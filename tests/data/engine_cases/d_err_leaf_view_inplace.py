import torch
u = torch.arange(1, 7.0).reshape(3, 2).requires_grad_()
u.is_leaf
u.mul_(2)
