import torch
torch.linalg.vector_norm(torch.ones(3), "fro")
