import torch
w = torch.tensor([[1.5, 2.0], [0.0, -1.0]])
w @ torch.tensor([3, 4])
