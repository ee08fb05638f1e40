import torch
torch.linalg.matrix_norm(torch.ones(3), ord="abc")
