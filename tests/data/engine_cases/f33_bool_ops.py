import torch
x = torch.tensor([1.0, -2.0, 3.0])
m = x > 0
m
~m
m & torch.tensor([True, True, False])
x[m]
(x > 0).sum()
(x > 0).any(), (x > 0).all()
torch.where(m, x, torch.zeros(3))
x.eq(1.0), x.ne(1.0)
torch.equal(x, x.clone())
