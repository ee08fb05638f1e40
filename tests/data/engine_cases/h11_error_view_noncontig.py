import torch
x = torch.ones(2, 3).t()
print(x.reshape(6))
x.view(6)
