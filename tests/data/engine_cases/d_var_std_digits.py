import torch
c1 = torch.arange(6, dtype=torch.float32).exp()
c1.var()
c1.std()
c1.var().item()
torch.manual_seed(3)
x = torch.randn(4, 5) * 100 + 5
x.var(0)
x.std(1, keepdim=True)
x.var(unbiased=False).item()
