# the 60 minute blitz's Net (CIFAR-10 shapes) trained a few steps on random images
import torch
import torch.nn as nn
import torch.nn.functional as F
_ = torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


net = Net()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
images = torch.randn(4, 3, 32, 32)
labels = torch.tensor([3, 8, 8, 0])
for step in range(4):
    optimizer.zero_grad()
    loss = criterion(net(images), labels)
    loss.backward()
    optimizer.step()
    print(step, loss.item())
print(net.conv1.weight.grad[0, 0])
print(net.conv2.bias.grad)
x = torch.randn(2, 3, 32, 32, requires_grad=True)
net.conv1(x).sum().backward()
print(x.grad[1, 2, :3, :6].tolist())
