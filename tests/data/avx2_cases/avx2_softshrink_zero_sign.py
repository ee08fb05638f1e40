# softshrink: +0.0 between -lambd and lambd in the vectorised body, a * 0 (-0.0 for negative
# inputs) in the scalar tail
import torch
import torch.nn.functional as F
x = torch.tensor([float('nan'), -0.0, 0.0, -0.2, 0.2, float('inf'), -float('inf'), 0.7, -0.7] * 5)
F.softshrink(x).tolist()
F.softshrink(x.double(), 0.1).tolist()
F.softshrink(x.reshape(5, 9).t()).tolist()
F.softshrink(x[:20]).tolist()
