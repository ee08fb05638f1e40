import torch

torch.manual_seed(0)
s = torch.randn(37)
e = torch.randn(37) * 3
w = torch.rand(37)
print(torch.lerp(s, e, w).tolist())
print(torch.lerp(s, e, 0.3).tolist())
print(s.lerp(e, 0.7).tolist())
print(torch.lerp(s.double(), e.double(), w.double()).tolist()[:5])
a = s.clone().requires_grad_()
y = a.lerp(e, w)
y.sum().backward()
print(y.grad_fn.name(), a.grad[:4])
