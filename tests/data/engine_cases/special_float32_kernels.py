import torch
torch.exp2(torch.tensor([1, 2, 3]))
torch.exp2(torch.tensor([0.5, 1.5], dtype=torch.float64))
torch.exp2(torch.tensor([0.5, 1.5], dtype=torch.float16))
torch.lgamma(torch.tensor([0.5, 3.5]))
torch.digamma(torch.tensor([0.5, -3.5, 0.0, -0.0, -2.0]))
torch.polygamma(1, torch.tensor([0.25, -3.5, 10.0]))
torch.logit(torch.tensor([0.25, 1.0, 0.0]), eps=1e-6)
