x = torch.tensor([1.5, 2.0, -0.5, 3.0], requires_grad=True)
y = x.cumprod(0)
y
y.sum().backward()
x.grad
m = torch.tensor([[3.0, 1.0], [2.0, 5.0], [4.0, 0.0]], requires_grad=True)
med = m.median(dim=0)
med
med.values.sum().backward()
m.grad
a = torch.tensor([2.0, 7.0, 1.0], requires_grad=True)
a.amin().backward()
a.grad
