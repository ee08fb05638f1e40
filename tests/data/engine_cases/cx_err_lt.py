import torch
x = torch.tensor([1+2j, 3-4j])
print(x == x)
print(x < x)
