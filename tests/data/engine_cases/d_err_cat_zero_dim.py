import torch
torch.cat([torch.ones(2), torch.tensor(2.)])
