import torch
print(torch.tensor([1, 2, 3]).sum(), torch.tensor([True, True]).sum())
torch.tensor([1, 2, 3]).mean()
