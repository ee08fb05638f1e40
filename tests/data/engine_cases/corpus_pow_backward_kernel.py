# x ** k backward computes x.pow(k - 1) with the forward's kernel: hand-written
# derivatives equal autograd's bit for bit (as in makemore's backprop exercise)
import torch
torch.manual_seed(5)
base = torch.rand(6) * 3 + 0.25
results = []
for k in [-1, -2, -0.5, 0.5, 2, 3, -3, 2.5, 1.5, 4]:
    x = base.clone().requires_grad_(True)
    upstream = torch.randn(6)
    (x ** k).backward(upstream)
    by_hand = upstream * (k * base ** (k - 1))
    results.append((k, torch.all(by_hand == x.grad).item()))
results
x = base.clone().requires_grad_(True)
inv = x ** -1
g = torch.linspace(-1, 1, 6)
inv.backward(g)
x.grad.tolist()
((-x.detach() ** -2) * g).tolist()
