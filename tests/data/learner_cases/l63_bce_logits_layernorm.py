# a small binary classifier: logits, BCEWithLogitsLoss (plain, pos_weight, sum), a LayerNorm
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
X = torch.randn(12, 3)
y = (X[:, :1] - X[:, 1:2] > 0).float()
net = nn.Sequential(nn.Linear(3, 6), nn.LayerNorm(6), nn.ReLU(), nn.Linear(6, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.5)
crit = nn.BCEWithLogitsLoss()
for step in range(6):
    opt.zero_grad()
    logits = net(X)
    loss = crit(logits, y)
    loss.backward()
    opt.step()
    print(step, loss.item())
logits = net(X).detach()
torch.set_printoptions(precision=8)
F.binary_cross_entropy_with_logits(logits, y, reduction="none").flatten()
F.binary_cross_entropy_with_logits(logits, y, pos_weight=torch.tensor([3.0]))
F.binary_cross_entropy_with_logits(logits, y, weight=torch.full((12, 1), 0.5), reduction="sum")
z = (torch.randn(20) * 4).requires_grad_()
t = torch.rand(20).round()
l = F.binary_cross_entropy_with_logits(z, t, pos_weight=torch.tensor(2.0))
l.backward()
l.item()
z.grad
F.logsigmoid(torch.linspace(-30, 30, 13))
u = torch.linspace(-6, 6, 33, requires_grad=True)
F.logsigmoid(u).sum().backward()
u.grad
ln = nn.LayerNorm(5)
h = torch.randn(4, 5) * 3 + 1
ln(h)
F.layer_norm(h, (5,))
nn.LayerNorm([2, 5], elementwise_affine=False)(torch.randn(3, 2, 5))
