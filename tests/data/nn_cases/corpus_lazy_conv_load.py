# a LazyConv2d model saved and loaded into a fresh lazy copy: the checkpoint shapes it
import torch
from torch import nn
torch.manual_seed(0)
net = nn.Sequential(nn.LazyConv2d(2, 3), nn.Flatten(), nn.LazyLinear(1))
X = torch.rand(1, 3, 5, 5)
Y = net(X)
torch.save(net.state_dict(), 'p')
clone = nn.Sequential(nn.LazyConv2d(2, 3), nn.Flatten(), nn.LazyLinear(1))
clone.load_state_dict(torch.load('p'))
clone
clone(X) == Y
clone
