import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
a = x.sigmoid()
b = a * a
a.mul_(2)
b.sum().backward()
