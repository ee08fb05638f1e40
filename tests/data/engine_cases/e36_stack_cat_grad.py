import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
s = torch.stack([a, b * 2], dim=1)
print(s)
c = torch.cat([a, b])
(s.sum() + (c * c).sum()).backward()
print(a.grad, b.grad)
