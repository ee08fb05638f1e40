import torch
y = torch.randn(3)
y.mv(y)
