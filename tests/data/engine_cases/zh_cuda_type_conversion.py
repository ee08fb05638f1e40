# x.type(torch.cuda.FloatTensor) on a CPU-only PyTorch
import torch
dtype = torch.cuda.FloatTensor
x = torch.randn(2, 3)
x.type(torch.FloatTensor).dtype
x.type(dtype)
