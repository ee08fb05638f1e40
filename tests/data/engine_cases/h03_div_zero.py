import torch
x = torch.tensor([1.0, 0.0, -1.0])
print(x / 0)
print(torch.tensor([0.0]) / 0)
print(x.log())
print(torch.tensor([4.0, -4.0]).sqrt())
print(torch.tensor([1, 2]) / 0)
