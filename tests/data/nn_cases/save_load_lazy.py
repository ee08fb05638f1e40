import torch
from torch import nn

_ = torch.manual_seed(1)


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.LazyLinear(6)
        self.b = nn.LazyLinear(2)

    def forward(self, x):
        return self.b(torch.tanh(self.a(x)))


net = Tiny()
inp = torch.randn(3, 5)
out = net(inp)
torch.save(net.state_dict(), 'tiny.pt')
copy = Tiny()
copy
copy.load_state_dict(torch.load('tiny.pt'))
copy.a.weight.shape
copy
torch.equal(copy(inp), out)
copy
copy.b.in_features
fresh = Tiny()
fresh.load_state_dict(torch.load('tiny.pt'), strict=False)
fresh.b.bias
