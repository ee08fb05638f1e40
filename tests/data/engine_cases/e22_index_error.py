import torch
x = torch.tensor([1.0, 2.0, 3.0])
print(x[-1], x[1:], x[[0, 2]], x[x > 1])
x[3]
