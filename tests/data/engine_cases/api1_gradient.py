import torch
x = torch.tensor([1., 4., 9., 16., 30.], requires_grad=True)
g = torch.gradient(x)
g
g[0].sum().backward(); print(x.grad)
a = torch.tensor([[1., 2., 4.], [2., 5., 9.]])
print(torch.gradient(a, spacing=2.0))
print(torch.gradient(a, dim=1, edge_order=2))
print(torch.gradient(torch.tensor([1., 2., 4., 7.]), spacing=(torch.tensor([0., 1., 3., 4.]),)))
print(torch.gradient(torch.tensor([1, 4, 9])))
print(torch.gradient(a, spacing=[2.0, 0.5]))
print(torch.gradient(a, spacing=2, dim=1))
print(torch.gradient(torch.tensor([1., 2., 4., 7., 11.]), spacing=(torch.tensor([0., 1., 3., 4., 7.]),), edge_order=2))
v = torch.linspace(-3, 3, 50).sin()
print(torch.gradient(v, spacing=0.1)[0].tolist())
print(torch.gradient(v, spacing=0.3, edge_order=2)[0].tolist())
for kw in [dict(edge_order=3), dict(spacing=[1., 2., 3.]), dict(dim=(0, 0))]:
    try:
        print(torch.gradient(a, **kw))
    except Exception as e:
        print(e)
torch.gradient(torch.tensor([1., 2.]), edge_order=2)
