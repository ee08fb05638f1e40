import torch
int(torch.tensor([1, 2]))
