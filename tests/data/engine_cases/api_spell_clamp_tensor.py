x = torch.tensor([-2.0, -0.5, 0.5, 2.0], requires_grad=True)
lo = torch.tensor([-1.0, 0.0, 0.0, 0.0])
hi = torch.tensor([1.0, 1.0, 0.2, 3.0])
y = x.clamp(lo, hi)
y
torch.clamp(x, min=lo)
torch.clamp(x, max=hi)
x.clip(lo, hi)
y.sum().backward()
x.grad
z = x.detach().clone()
z.clamp_(min=lo, max=hi)
z
torch.clamp(x, min=torch.tensor(0.0))
