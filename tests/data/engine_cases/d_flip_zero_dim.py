import torch
a = torch.tensor(3.0, requires_grad=True)
a.flip(0)
a.flip(-1).backward()
a.grad
torch.tensor([1.0, 2.0]).flip(0)
