import torch
x = torch.arange(6.)
print(x.view(2, 3))
print(x.view(-1, 2))
x.view(4, 2)
