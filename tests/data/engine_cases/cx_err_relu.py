import torch
torch.relu(torch.tensor([1+2j]))
