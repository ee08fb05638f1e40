import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                    nn.Linear(4 * 3 * 3, 3))
net
x = torch.randn(5, 1, 8, 8)
y = torch.tensor([0, 2, 1, 1, 0])
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x), y)
    loss.backward()
    total = nn.utils.clip_grad_norm_(net.parameters(), max_norm=0.5)
    opt.step()
    print(step, loss, total)
nn.utils.clip_grad_value_(net.parameters(), 0.01)
net[0].weight.grad[0, 0]
net[1].running_mean
net[1].num_batches_tracked
net.eval()
net(x[:2])
sd = net.state_dict()
list(sd.keys())
net2 = nn.Sequential(nn.Conv2d(1, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                     nn.Linear(4 * 3 * 3, 3))
net2.load_state_dict(sd)
net2.eval()
torch.equal(net2(x), net(x))
