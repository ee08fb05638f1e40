import torch
torch.hann_window(8)
torch.hann_window(7, periodic=False)
torch.hamming_window(6)
torch.hamming_window(6, False, 0.6, 0.4)
torch.blackman_window(5)
torch.blackman_window(6, False, dtype=torch.float64)
torch.bartlett_window(7)
torch.bartlett_window(8, periodic=False)
torch.kaiser_window(8)
torch.kaiser_window(6, False, 5.0)
torch.hann_window(0)
torch.hann_window(1)
torch.hann_window(4, requires_grad=True)
torch.hann_window(400).tolist() == torch.hann_window(400).tolist()
torch.hann_window(400).sum()
torch.kaiser_window(50).tolist()[:6]
torch.blackman_window(33).tolist()[:5]
try:
    torch.hann_window(-1)
except RuntimeError as e:
    print(e)
try:
    torch.hann_window(2.5)
except TypeError as e:
    print(e)
torch.hamming_window(3, dtype=torch.int64)
