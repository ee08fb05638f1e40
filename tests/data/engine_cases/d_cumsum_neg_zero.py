import torch
torch.tensor([-0.0, 0.0, -1.0]).cumsum(0)
torch.tensor([[-0.0, -0.0], [1.0, -0.0]]).cumsum(1)
torch.tensor([[-0.0, -0.0, 0.0]])
