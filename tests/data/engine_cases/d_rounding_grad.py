import torch
a = torch.tensor([1.5, -2.5, 0.4], requires_grad=True)
a.ceil(), a.floor(), a.round()
torch.floor(a * 2)
(a.ceil() + a.floor() + a.round() + a).sum().backward()
a.grad
torch.tensor([1, -2]).floor()
b = torch.tensor([2.0, 3.0], requires_grad=True)
c = b // 2
c
c.requires_grad
7.0 // b
b % 2
(b * 2) % b
torch.tensor([3.0, 2.5]) % b
torch.tensor([-2.0, 2.0, -3.0, 3.0]) % 2
torch.tensor([-2.0, 2.0, -3.0, 3.0]) % -2
torch.tensor([-7, 7]) % 3
d = (torch.tensor([5.0, 7.5]) % b).sum()
d.backward()
b.grad
