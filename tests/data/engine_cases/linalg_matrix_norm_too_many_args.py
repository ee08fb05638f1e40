import torch
torch.linalg.matrix_norm(torch.ones(2, 2), "fro", (0, 1), False, 5)
