# Updates with alpha given as a keyword (fine), then positionally after the tensor (a
# TypeError in PyTorch: alpha is keyword-only), and a keyword PyTorch does not know.
import torch
torch.manual_seed(1)
w = torch.randn(3)
g = torch.randn(3)
w.add_(g, alpha=-0.1)
w.sub(g, alpha=2)
try:
    w.add_(g, -0.1)
except TypeError as e:
    print(e)
try:
    torch.sub(w, g, 2)
except TypeError as e:
    print(e)
try:
    w.add(1, 2, 3)
except TypeError as e:
    print(e)
w.add(g, 1, alpha=2)
