import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
y = a.exp()
y.add_(1)
print(y)
y.sum().backward()
