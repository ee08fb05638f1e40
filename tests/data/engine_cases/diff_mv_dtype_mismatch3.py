import torch
w = torch.tensor([[1.5, 2.0], [0.0, -1.0]], dtype=torch.float64)
torch.mv(w, torch.ones(2))
