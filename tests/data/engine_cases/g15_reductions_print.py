import torch
x = torch.tensor([[3.0, 1.0, 2.0], [9.0, 7.0, 8.0]], requires_grad=True)
x.sum()
x.mean(1)
x.max()
x.max(0)
x.min(dim=1).values
x.argmin(0)
x.norm(dim=0)
x.prod()
x.std(1)
x.var()
