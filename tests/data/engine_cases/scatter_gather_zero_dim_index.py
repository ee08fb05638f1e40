# A one-hot label the way the transforms tutorial builds it: a 0-d index
import torch
label = 3
torch.zeros(10, dtype=torch.float).scatter_(dim=0, index=torch.tensor(label), value=1)
torch.zeros(10).scatter_(0, torch.tensor(9), value=1)
torch.zeros(4, dtype=torch.long).scatter(0, torch.tensor(1), 5)
x = torch.zeros(4, requires_grad=True)
s = torch.tensor(7., requires_grad=True)
y = x.scatter(0, torch.tensor(2), s)
y
(y * torch.arange(1., 5.)).sum().backward()
x.grad
s.grad
w = torch.arange(4., requires_grad=True)
g = w.gather(0, torch.tensor(2))
g
g.backward()
w.grad
torch.zeros(4).scatter_add(0, torch.tensor(2), torch.tensor([7., 8.]))
torch.zeros(2, 3).scatter(0, torch.tensor(1), 1.0)
