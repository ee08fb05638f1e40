import torch
x = torch.tensor([[1, 2], [3, 4]])
x.softmax(1)
