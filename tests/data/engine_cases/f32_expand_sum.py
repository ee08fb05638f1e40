import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.unsqueeze(0).expand(3, 2)
print(y)
(y * torch.arange(6.).view(3, 2)).sum().backward()
print(x.grad)
