import torch
from torch import nn
_ = torch.manual_seed(0)
pl = nn.ParameterList([nn.Parameter(torch.randn(2, 3)), torch.zeros(4)])
pl
len(pl)
pl[1]
pl.append(nn.Parameter(torch.ones(1, dtype=torch.float64)))
[n for n, _ in pl.named_parameters()]
pl[-1]
pl[0:2]
pl.extend([torch.ones(2)])
len(pl)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.ws = nn.ParameterList([nn.Parameter(torch.randn(3, 3)) for _ in range(2)])
        self.bs = nn.ParameterDict({'b1': nn.Parameter(torch.zeros(3)), 'a0': nn.Parameter(torch.ones(3))})
    def forward(self, x):
        for w in self.ws:
            x = x @ w
        return x + self.bs['b1'] + self.bs['a0']
net = Net()
net
list(net.state_dict().keys())
y = net(torch.ones(2, 3))
y.sum().backward()
net.bs['a0'].grad
net.ws[1].grad is not None
pd = nn.ParameterDict()
pd['x'] = torch.ones(2)
pd.update([('y', nn.Parameter(torch.zeros(1))), ('z', 'hello')])
pd
list(pd.keys())
'x' in pd
len(pd)
pd.pop('y')
list(pd)
pd.get('nope', 5)
type(pd['x'])
opt = torch.optim.SGD(net.parameters(), lr=0.1)
len(opt.param_groups[0]['params'])
pl(torch.ones(1))
