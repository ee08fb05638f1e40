import torch
grid = torch.tensor([[4., -1., 2.5], [0.5, 3., 3.]])
best = grid.max(dim=1)
best.indices
best.shape
