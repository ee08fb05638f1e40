import torch
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
e = w * 2
y = 2 ** e
e.add_(1)
y.sum().backward()
