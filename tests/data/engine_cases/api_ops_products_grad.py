a = torch.tensor([[[1.0, 2.0], [3.0, 4.0]]], requires_grad=True)
b = torch.tensor([[[0.5], [-1.0]]], requires_grad=True)
c = torch.bmm(a, b)
c
e = torch.einsum("bij,bjk->bik", a, b)
e
k = torch.kron(a[0], b[0])
d = torch.diff(a.flatten())
d
cr = torch.cross(a[0, 0].repeat(2)[:3], torch.tensor([1.0, 0.0, 2.0]), dim=0)
(c.sum() + e.sum() * 2 + k.sum() + d.sum() + cr.sum()).backward()
a.grad
b.grad
