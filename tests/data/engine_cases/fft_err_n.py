import torch
torch.fft.fft(torch.ones(4), n=0)
