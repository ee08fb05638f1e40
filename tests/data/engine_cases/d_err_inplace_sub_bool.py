import torch
c3 = torch.tensor([1.0, 2.0]) > 1
with torch.no_grad():
    c3 -= 0.1 * c3
