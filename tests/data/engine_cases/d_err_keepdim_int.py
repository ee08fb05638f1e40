import torch
f = torch.tensor([[1.0, 2.0]], requires_grad=True)
f.sum(0, keepdim=1)
