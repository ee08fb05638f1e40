import torch
import math
r = math.sqrt(2.0)
print(repr(f"{r:.3f}"))
t = torch.linspace(0, math.pi, 5)
print(t)
s = torch.sin(t)
print(s)
print(torch.clamp(t, 0.5, 2.0))
print(s.sum().item() > 2)
print({"n": 3, "name": "sin"})
