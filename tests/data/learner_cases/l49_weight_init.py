import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(4, 3)
print(lin.weight)
print(lin.bias)
nn.init.zeros_(lin.bias)
nn.init.constant_(lin.weight, 0.5)
print(lin(torch.ones(1, 4)))
nn.init.xavier_uniform_(lin.weight)
print(lin.weight)
nn.init.kaiming_normal_(lin.weight, nonlinearity="relu")
print(lin.weight.std() > 0)
nn.init.normal_(lin.weight, mean=0.0, std=0.02)
print(lin.weight)
def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.ones_(m.weight)
        m.bias.data.fill_(0.01)
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
net.apply(init_weights)
print(net[0].weight, net[2].bias)
print(net(torch.tensor([[1.0, 2.0]])))
with torch.no_grad():
    net[0].weight.copy_(torch.eye(2))
print(net[0].weight)
nn.init.uniform_(net[0].weight, a=2, b=1)
print(net[0].weight)
nn.init.xavier_uniform_(torch.ones(3))
