# robust regression: HuberLoss and SmoothL1Loss with several delta/beta, trained by SGD
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
X = torch.randn(30, 2)
y = X @ torch.tensor([[1.5], [-0.5]]) + 0.2 * torch.randn(30, 1)
y[::7] += 4.0                              # a few outliers
for crit in (nn.HuberLoss(), nn.HuberLoss(delta=0.5), nn.SmoothL1Loss(beta=2.0), nn.SmoothL1Loss(reduction="sum")):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(5):
        opt.zero_grad()
        loss = crit(model(X), y)
        loss.backward()
        opt.step()
    print(crit, loss.item())
torch.set_printoptions(precision=8)
model[0].weight.grad
a = torch.linspace(-3, 3, 13, requires_grad=True)
b = torch.zeros(13)
F.huber_loss(a, b, reduction="none", delta=2.0)
F.smooth_l1_loss(a, b, reduction="none", beta=0.5)
F.huber_loss(a, b, delta=2.0).backward()
a.grad
