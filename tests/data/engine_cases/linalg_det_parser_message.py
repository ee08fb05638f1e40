import torch
torch.linalg.det("abc")
