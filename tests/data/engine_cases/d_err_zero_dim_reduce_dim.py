import torch
a = torch.tensor(2.0, requires_grad=True)
a.sum(dim=0), a.mean(0, keepdim=True), a.logsumexp(0), a.sum(dim=(0,))
a.logsumexp(dim=1, keepdim=True)
