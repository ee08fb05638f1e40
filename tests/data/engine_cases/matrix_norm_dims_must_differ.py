import torch
torch.linalg.matrix_norm(torch.ones(2,3), dim=(0,-2))
