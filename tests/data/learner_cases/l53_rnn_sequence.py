import torch
import torch.nn as nn
torch.manual_seed(5)
seq = torch.sin(torch.linspace(0, 6.28, 21))
X = seq[:-1].view(1, 20, 1)
Y = seq[1:].view(1, 20, 1)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(1, 8, batch_first=True)
        self.head = nn.Linear(8, 1)
    def forward(self, x):
        out, h = self.rnn(x)
        return self.head(out)
net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.02)
losses = []
for step in range(30):
    opt.zero_grad()
    loss = nn.functional.mse_loss(net(X), Y)
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(len(losses), losses[0] > losses[-1])
print(f"{losses[0]:.3f}")
print(net.rnn)
print(net.rnn.weight_hh_l0.shape)
h0 = torch.zeros(1, 1, 8)
out, hn = net.rnn(X, h0)
print(out.shape, hn.shape)
net.rnn(X, torch.zeros(1, 8))
