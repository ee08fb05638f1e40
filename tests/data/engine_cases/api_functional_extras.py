import torch
import torch.nn.functional as F
x = torch.tensor([-1.2, -0.3, 0.5, 0.6, 2.0], requires_grad=True)
print(F.hardshrink(x), x.hardshrink(0.4), torch.hardshrink(x, 1.5))
print(F.softshrink(x), F.softshrink(x, 0.25))
print(torch.threshold(x, 0.5, -1.0), F.threshold(x, 0.55, 9))
g = F.glu(torch.arange(12.0).view(3, 4) / 5, 1)
print(g)
out = F.hardshrink(x) * 2 + F.softshrink(x, 0.4) * 3 + F.threshold(x, 0.0, 0.5) + F.glu(torch.stack([x, x.flip(0)]), 0)[0]
out.sum().backward()
print(x.grad)
for bad in [lambda: F.softshrink(x, -1), lambda: F.glu(x), lambda: F.glu(torch.tensor(1.0))]:
    try:
        bad()
    except RuntimeError as err:
        print(err)
h = torch.tensor([-1.0, 2.0, -0.5])
print(F.relu_(h.clone()), F.elu_(h.clone()), F.leaky_relu_(h.clone(), 0.1), F.hardtanh_(h.clone(), -0.8, 0.8),
      F.selu_(h.clone()), F.celu_(h.clone(), 0.5), F.threshold_(h.clone(), 0.0, -7.0))
try:
    F.relu_(x)
except RuntimeError as err:
    print(err)
a = torch.tensor([[0.5, 1.0, -2.0], [1.5, 0.2, 0.3]], requires_grad=True)
b = torch.tensor([[0.1, 1.2, -1.0], [0.5, 0.5, 0.5]])
d = F.pairwise_distance(a, b)
print(d, F.pairwise_distance(a, b, p=1, keepdim=True))
target = torch.tensor([1.0, -1.0])
m = F.margin_ranking_loss(a[:, 0], b[:, 0], target, margin=0.2)
print(m, F.margin_ranking_loss(a[:, 0], b[:, 0], target, reduction="none"))
hinge = F.hinge_embedding_loss(a, torch.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]]))
print(hinge, F.hinge_embedding_loss(a, torch.tensor([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]]), margin=2.0, reduction="sum"))
(d.sum() + m + hinge).backward()
print(a.grad)
