x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = torch.roll(x, 1, 1)
y
z = torch.tile(x, (1, 2))
z.shape
w = x.movedim(0, 1)
w
u = x.unflatten(1, (3, 1))
u.shape
v = torch.hstack([x, x * 2])
(y * torch.arange(3.)).sum().backward(retain_graph=True)
x.grad
x.grad = None
(z.sum() + w.sum() + u.sum() + v.sum()).backward()
x.grad
