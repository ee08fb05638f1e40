import torch
m = torch.arange(6).reshape(2, 3)
v = torch.tensor([0.5, -1.0, 2.0])
m.float() @ v
torch.mv(m.double(), v.double())
m @ v
