import torch
a = torch.randn(2, 3)
b = torch.randn(2, 3)
try:
    a @ b
except RuntimeError as e:
    print(e)
print((a @ b.T).shape)
try:
    a + torch.randn(3, 2)
except RuntimeError as e:
    print(e)
try:
    torch.cat([a, torch.randn(2, 4)])
except RuntimeError as e:
    print(e)
print(torch.cat([a, torch.randn(2, 4)], dim=1).shape)
print(torch.stack([a, b]).shape, torch.stack([a, b], dim=2).shape)
a.view(3, 3)
