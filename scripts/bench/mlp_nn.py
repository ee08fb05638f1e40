import torch
from torch import nn
_ = torch.manual_seed(0)
X = torch.rand(256, 784)
Y = torch.rand(256, 10)
model = nn.Sequential(nn.Linear(784, 256), nn.Tanh(), nn.Linear(256, 10))
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(40):
    pred = model(X)
    loss = loss_fn(pred, Y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(round(loss.item(), 3))
