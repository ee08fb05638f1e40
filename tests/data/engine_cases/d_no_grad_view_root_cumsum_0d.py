import torch
y2 = torch.arange(6, dtype=torch.float32).reshape(3, 2).requires_grad_()
with torch.no_grad():
    x3 = y2[0]
x3.requires_grad
x = torch.eye(2, requires_grad=True)
with torch.no_grad():
    v = x.t()[0]
v.requires_grad
torch.full((), 3.9).cumsum(-1)
torch.full((), 3.9).cumsum(-1).unsqueeze(-1)
