import torch
torch.linalg.inv(torch.eye(2), 3)
