import torch
scores = torch.arange(6)
scores.mean(dtype=torch.float64)
scores.float().mean(dtype=torch.float64)
try:
    scores.float().mean(0, dtype=torch.int32)
except RuntimeError as e:
    print(e)
try:
    torch.nn.BatchNorm1d(3)(torch.ones(1, 3))
except ValueError as e:
    print(e)
scores.mean(dtype=torch.int64)
