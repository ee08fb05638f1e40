import torch
w4 = torch.tensor([1.0, 2.0]) > 1.5
1.0 - w4
