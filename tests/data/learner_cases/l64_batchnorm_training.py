# an MLP with BatchNorm1d trained a few steps; gradients and running statistics printed
import torch
import torch.nn as nn

torch.manual_seed(11)
X = torch.randn(16, 5)
y = X[:, :2].sum(1, keepdim=True) * 0.5 + 0.1
model = nn.Sequential(nn.Linear(5, 10), nn.BatchNorm1d(10), nn.ReLU(), nn.Linear(10, 3), nn.BatchNorm1d(3),
                      nn.Linear(3, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
for step in range(5):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    print(step, loss.item())
torch.set_printoptions(precision=8)
model[1].weight.grad
model[1].bias.grad
model[4].weight.grad
model[0].weight.grad
model[1].running_mean
model[1].running_var
model.eval()
with torch.no_grad():
    print(model(X[:4]).flatten().tolist())
bn = nn.BatchNorm1d(4, affine=False)
h = torch.randn(6, 4, requires_grad=True)
bn(h).pow(2).sum().backward()
h.grad
