# Powers PyTorch's pow kernel does not special-case (x**4, x**2.5, x**0.3, ...): its
# vectorised loop calls Sleef's powf, the last elements std::pow; every bit shows in tolist()
import math
import torch

x = torch.linspace(-math.pi, math.pi, 45)
print((x ** 4).tolist())
print((x ** 5).tolist())
print((x.abs() ** 2.5).tolist())
print((x ** 1.7).tolist())
y = torch.linspace(0.001, 50, 70)
print((y ** 0.3).tolist())
print(torch.pow(y, -1.5).tolist())
print((y ** 7).sum().item(), (y ** -3).sum().item())
z = torch.tensor([0.0, -0.0, float('inf'), -float('inf'), float('nan'), 1.0, -1.0, -2.0, 3e38, 1e-45] * 4)
print((z ** 4).tolist())
print((z ** -3).tolist())
print((z ** 0.5).tolist())
w = torch.linspace(0.5, 2.0, 40, requires_grad=True)
(w ** 2.5).sum().backward()
print(w.grad.tolist())
t = torch.tensor(1.7)
t ** 3.3, t.pow(-0.25), 2 ** t
