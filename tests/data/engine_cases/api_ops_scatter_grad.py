src = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
base = torch.zeros(2, 4, requires_grad=True)
out = base.scatter_add(1, torch.tensor([[0, 0, 3], [1, 2, 1]]), src)
out
(out * torch.arange(8.).reshape(2, 4)).sum().backward()
src.grad
base.grad
y = torch.tensor([1.0, -2.0, 3.0, -4.0], requires_grad=True)
s = y.masked_select(y > 0)
s
t = y.take(torch.tensor([3, 3, 0]))
(s.sum() + t.sum()).backward()
y.grad
a = torch.zeros(3, requires_grad=True)
r = a.index_add(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0]))
r.sum().backward()
a.grad
