m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
d = torch.diag(m)
d
t = torch.trace(m)
t
(d.sum() + t + m.tril().sum() * 2 + m.triu(1).sum()).backward()
m.grad
