import torch
c = torch.tensor(3.0)
torch.ones(2, 2).mv(torch.ones(2))
c.mv(c)
