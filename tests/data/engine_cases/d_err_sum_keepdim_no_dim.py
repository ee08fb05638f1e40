import torch
x = torch.ones(2, 3, requires_grad=True)
x.sum(keepdim=True)
