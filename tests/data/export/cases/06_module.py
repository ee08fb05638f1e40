import torch
from torch import nn

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return torch.sigmoid(self.fc(x))


net = Net()
net
x = torch.ones(4, 3)
out = net(x).sum()
out.backward()
net.fc.weight.grad
exp(out)
[p.shape for p in net.parameters()]
