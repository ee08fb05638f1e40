import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(37) * 3
F.gelu(x).tolist()
F.gelu(torch.randn(4, 27)).sum().item()
F.gelu(x.view(1, 37).t()).view(-1).tolist() == F.gelu(x).tolist()
net = nn.Sequential(nn.Linear(3, 8), nn.GELU(), nn.Linear(8, 1))
data = torch.randn(16, 3)
target = data.sum(1, keepdim=True).sin()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = F.mse_loss(net(data), target)
    loss.backward()
    opt.step()
    print(step, loss.item())
