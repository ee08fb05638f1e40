import torch
x = torch.arange(10)
y = x.clone().float()
y[y == y.max()] = float('nan')
print(y)
y = x.clone()
y[y == y.max()] = torch.tensor(9.)
print(y)
y[y > 7] = torch.tensor([0, 0])
print(y)
try:
    y[y > 5] = torch.tensor([1.0, 2.0])
except RuntimeError as e:
    print(e)
y[y < 0] = torch.zeros(2)
