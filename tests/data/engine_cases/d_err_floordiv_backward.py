import torch
b = torch.tensor([2.0, 3.0], requires_grad=True)
c = b // 2
(c * 2).sum().backward()
