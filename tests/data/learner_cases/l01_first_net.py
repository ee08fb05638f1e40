import torch
import torch.nn as nn

torch.manual_seed(1)
# my first network!! predicts y = 3x + 1
xs = torch.linspace(-1, 1, 10).unsqueeze(1)
ys = 3 * xs + 1
net = nn.Linear(1, 1)
print(net)
print("weight before:", net.weight.item(), "bias before:", net.bias.item())
opt = torch.optim.SGD(net.parameters(), lr=0.5)
for i in range(30):
    pred = net(xs)
    loss = ((pred - ys) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if i % 10 == 0:
        print(f"step {i}: loss = {loss.item():.5f}")
print(f"learned w={net.weight.item():.3f} b={net.bias.item():.3f}")
