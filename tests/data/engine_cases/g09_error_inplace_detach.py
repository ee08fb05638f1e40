import torch
x = torch.ones(2, requires_grad=True)
x.data.add_(1)
print(x)
x.zero_()
