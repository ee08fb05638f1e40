x = torch.tensor([3.0, 1.0, 2.0, 5.0], requires_grad=True)
v, i = x.sort()
v
(v * torch.arange(4.)).sum().backward()
x.grad
y = torch.tensor([[1.0, 9.0, 4.0], [7.0, 2.0, 8.0]], requires_grad=True)
t = y.topk(2)
t.values
t.values.sum().backward()
y.grad
