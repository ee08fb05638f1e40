import torch
x = torch.arange(5)
x[slice(None, None, -1)]
