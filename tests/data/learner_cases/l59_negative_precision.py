import torch
torch.set_printoptions(precision=-1)
print(torch.tensor([1.0, 2.0]))
print(torch.tensor([1, 2]))
try:
    print(torch.tensor([1.5, 2.0]))
except ValueError as e:
    print("ValueError:", e)
torch.set_printoptions(precision=3)
print(torch.tensor([1.5, 2.0]))
torch.set_printoptions(precision=-2)
print(torch.tensor([1e-8, 1.0]))
