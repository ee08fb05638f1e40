import torch
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
print(x.sum(dim=1, keepdim=True), x.mean(dim=0), x.prod(1), x.std(), x.var(1))
y = x.prod(1).sum() + x.std()
y.backward()
print(x.grad)
print(x.max(dim=1, keepdim=True))
