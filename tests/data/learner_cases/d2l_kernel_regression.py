# Kernel regression as attention pooling (d2l's Nadaraya-Watson idea, own program): softmax of
# negative squared distances weights the training targets; a learnable width trained with SGD.
# (weighted sum written out: d2l uses bmm here, whose last bits may differ from MKL's)
import torch
from torch import nn

torch.manual_seed(7)
n = 30
x_tr, _ = torch.sort(torch.rand(n) * 5)
y_tr = 2 * torch.sin(x_tr) + x_tr ** 0.8 + torch.normal(0.0, 0.5, (n,))
x_te = torch.arange(0, 5, 0.25)
q = x_te.repeat_interleave(n).reshape((-1, n))
att = nn.functional.softmax(-(q - x_tr) ** 2 / 2, dim=1)
att.shape, att.sum(1)[:3]
att @ y_tr

class KernelReg(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.rand((1,), requires_grad=True))

    def forward(self, queries, keys, values):
        queries = queries.repeat_interleave(keys.shape[1]).reshape((-1, keys.shape[1]))
        self.attention_weights = nn.functional.softmax(-((queries - keys) * self.w) ** 2 / 2, dim=1)
        return (self.attention_weights * values).sum(1)

X_tile = x_tr.repeat((n, 1))
Y_tile = y_tr.repeat((n, 1))
keys = X_tile[(1 - torch.eye(n)).type(torch.bool)].reshape((n, -1))
values = Y_tile[(1 - torch.eye(n)).type(torch.bool)].reshape((n, -1))
net = KernelReg()
loss = nn.MSELoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
for epoch in range(5):
    trainer.zero_grad()
    l = loss(net(x_tr, keys, values), y_tr)
    l.sum().backward()
    trainer.step()
    print(f'epoch {epoch + 1}, loss {float(l.sum()):.6f}')
net.w
net(x_te, x_tr.repeat((len(x_te), 1)), y_tr.repeat((len(x_te), 1)))
net.attention_weights[:2, :6]
