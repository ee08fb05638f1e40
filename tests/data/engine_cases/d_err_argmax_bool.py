import torch
z5 = torch.tensor([1.0, 2.0]) < 1.5
z5.argmax()
