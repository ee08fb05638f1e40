import torch
m = torch.tensor([[1., 2.], [3., 4.]])
v = torch.tensor([1., -1.])
b = torch.ones(2, 2, requires_grad=True)
c = b * 1
c.addmm_(m, m, beta=0.5, alpha=2)
c.sum().backward()
b.grad
torch.zeros(2).addmv_(m, v)
torch.zeros(2, 2).addr_(v, v, alpha=3)
torch.zeros(2, 2).addbmm_(m.expand(3, 2, 2), m.expand(3, 2, 2))
torch.zeros(3, 2, 2).baddbmm_(m.expand(3, 2, 2), m.expand(3, 2, 2))[2]
d = torch.tensor([1., 2., 3.], dtype=torch.float64)
d.float_power_(2)
d.ldexp_(torch.tensor([1, 0, -1]))
e = torch.tensor([-2., 0., 3.])
e.sgn_()
e.nextafter_(torch.tensor([0., 1., 0.]))
f = torch.tensor([0.5, 1.5])
f.polygamma_(1)
f.mvlgamma_(1)
try:
    torch.ones(2).float_power_(2)
except RuntimeError as err:
    print(err)
b.addmm_(m, m)
