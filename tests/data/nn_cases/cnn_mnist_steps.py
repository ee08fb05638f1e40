import torch
import torch.nn as nn
import torch.nn.functional as F

_ = torch.manual_seed(0)
torch.set_printoptions(precision=10)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(16, 16, kernel_size=3, stride=2, padding=1)
        self.conv3 = nn.Conv2d(16, 10, kernel_size=3, stride=2, padding=1)

    def forward(self, xb):
        xb = xb.view(-1, 1, 28, 28)
        xb = F.relu(self.conv1(xb))
        xb = F.relu(self.conv2(xb))
        xb = F.relu(self.conv3(xb))
        xb = F.avg_pool2d(xb, 4)
        return xb.view(-1, xb.size(1))


model = SmallCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(48, 784)
y = torch.randint(0, 10, (48,))
for epoch in range(3):
    for i in range(0, 48, 16):
        loss = F.cross_entropy(model(x[i:i + 16]), y[i:i + 16])
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(epoch, loss.item())
model.conv1.weight[0, 0]
model.conv3.bias
model(x[:2])
