import torch
b = torch.tensor(3.0)
b.size()
b.size(0)
