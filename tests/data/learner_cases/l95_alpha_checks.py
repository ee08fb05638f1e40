# add/sub with keywords (other=, input=) and an alpha PyTorch checks against the result dtype.
import torch
w = torch.tensor([1.0, -2.0, 0.5])
g = torch.tensor([0.25, 0.5, -1.0])
w.add(other=g)
w.sub(other=g, alpha=2)
torch.add(input=w, other=g, alpha=-0.5)
torch.sub(w, g, alpha=0.5)
flags = w > 0
flags.add(g > 0, alpha=True)
try:
    w.add_(g, alpha=True)
except RuntimeError as e:
    print(e)
try:
    w.add(True, g)
except RuntimeError as e:
    print(e)
w
counts = torch.tensor([3, 4, 5])
counts.add(counts, alpha=2)
counts.sub(counts, alpha=0.5)
