import torch
c2 = torch.arange(4)
y3 = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
x4 = c2
x4[0] = y3.sum()
print(x4)
c2.reshape(2, 2)
x4.requires_grad
