import torch
x = torch.ones(3)
y = x * 2
print(y.requires_grad)
y.sum().backward()
