import torch
torch.fft.rfft(torch.tensor([1+1j, 2.]))
