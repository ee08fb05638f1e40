# torch.arange's float values as PyTorch's CPU kernel rounds them (SIMD blocks, fused multiply-add)
import torch
cases = [(-8.0, 8.0, 0.1), (0, 3, 0.1), (-7, 7, 0.01), (0.5, 10.3, 0.7), (1, 2, 0.001), (-3.14159, 3.14159, 0.0031), (0, 1, 1/3), (5, -5, -0.3), (-1000.5, 20000, 0.77), (0, 10, 1)]
for s, e, st in cases:
    for dt in (torch.float32, torch.float64):
        t = torch.arange(s, e, st, dtype=dt)
        print(t.shape, t.sum().item(), t[::97].tolist()[:8], t[-3:].tolist())
torch.relu(torch.arange(-8.0, 8.0, 0.1))[75:85]
torch.arange(0, 3, 0.1)[16:]
