import torch
torch.tensor([[1, 2]]).softmax(0)
