import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
w = torch.tensor([0.5, -1.5], requires_grad=True)
r = torch.rsub(x, w, alpha=2)
r
r.sum().backward()
x.grad
w.grad
torch.rsub(x, 1)
torch.rsub(x, 0.25, alpha=3)
torch.rsub(torch.tensor([1, 2, 3]), 5)
torch.rsub(torch.tensor([1, 2, 3]), 2.5)
v = torch.linspace(-1, 1, 7)
torch.rsub(v, 0.1, alpha=0.3).tolist()
f = torch.fill(x, 3)
f
f2 = torch.fill(x, torch.tensor(2., requires_grad=True))
f2
torch.fill(torch.ones(3, dtype=torch.int64), 2.7)
y = torch.ones(2, 2)
torch.zero_(y)
torch.fill_(y, 1.5)
y
try:
    torch.fill(x, torch.ones(2))
except RuntimeError as e:
    print(e)
try:
    torch.rsub(2, x)
except TypeError as e:
    print(e)
torch.zero_(x)
