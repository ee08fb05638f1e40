import torch
torch.tensor([1, 2, 3]).logsumexp(0)
(torch.tensor([0.5, 2.0]) > 1).logsumexp(dim=0, keepdim=True)
