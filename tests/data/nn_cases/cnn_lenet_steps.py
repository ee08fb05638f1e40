import torch
import torch.nn as nn
import torch.nn.functional as F

_ = torch.manual_seed(3)
torch.set_printoptions(precision=10)


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
images = torch.randn(12, 3, 32, 32)
labels = torch.randint(0, 10, (12,))
for step in range(6):
    k = (step % 3) * 4
    optimizer.zero_grad()
    loss = criterion(net(images[k:k + 4]), labels[k:k + 4])
    loss.backward()
    optimizer.step()
    print(step, loss.item())
net.conv2.weight.grad[0, 0]
net.conv1.bias


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 6, kernel_size=5, padding=2)
        self.c2 = nn.Conv2d(6, 16, kernel_size=5)
        self.out = nn.Linear(16 * 5 * 5, 10)

    def forward(self, x):
        x = F.avg_pool2d(torch.sigmoid(self.c1(x)), kernel_size=2, stride=2)
        x = F.avg_pool2d(torch.sigmoid(self.c2(x)), kernel_size=2, stride=2)
        return self.out(x.flatten(1))


lenet = LeNet()
opt = torch.optim.SGD(lenet.parameters(), lr=0.9)
xs = torch.rand(10, 1, 28, 28)
ys = torch.randint(0, 10, (10,))
for step in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(lenet(xs), ys)
    loss.backward()
    opt.step()
    print(step, loss.item())
lenet.c1.weight.grad[0]
