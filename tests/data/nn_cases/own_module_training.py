# A Module subclass that nests a Sequential, trained with torch.optim on a tiny
# synthetic problem; state_dict keys, eval mode and a prediction afterwards
import torch
from torch import nn
torch.manual_seed(314)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))
        self.dropout = nn.Dropout(0.25)

    def forward(self, x):
        return self.body(self.dropout(x))


net = Regressor()
net
list(net.state_dict().keys())
xs = torch.rand(32, 2) * 2 - 1
ys = (xs[:, :1] * 3 - xs[:, 1:] * 0.5) + 0.2
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.MSELoss()
for step in range(40):
    opt.zero_grad()
    loss = loss_fn(net(xs), ys)
    loss.backward()
    opt.step()
    if step % 10 == 9:
        print(step + 1, round(loss.item(), 4))
net.training, net.body[0].training
net.eval()
net.training, net.dropout.training
with torch.no_grad():
    pred = net(torch.tensor([[0.5, -0.5]]))
print(pred)
pred.requires_grad, pred.grad_fn
