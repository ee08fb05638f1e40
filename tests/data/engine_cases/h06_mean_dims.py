import torch
x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()
y = x.mean(dim=(0, 2))
print(y)
y.sum().backward()
print(x.grad[0])
print(x.sum(-1).shape, x.sum(dim=[0, 1]).shape)
