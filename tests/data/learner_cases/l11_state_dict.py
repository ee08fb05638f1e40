import torch
import torch.nn as nn
torch.manual_seed(11)
net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
sd = net.state_dict()
print(list(sd))
for key in sd:
    print(key, sd[key].shape)
print(sd['0.bias'])
net2 = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(torch.equal(net2[0].weight, net[0].weight))
result = net2.load_state_dict(sd)
print(result)
print(torch.equal(net2[0].weight, net[0].weight))
bad = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
bad.load_state_dict(sd)
