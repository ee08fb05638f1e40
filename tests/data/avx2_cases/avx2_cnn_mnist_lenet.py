# nn_tutorial's strided Mnist_CNN, d2l's LeNet and a 1-d convolution on random data
import torch
import torch.nn as nn
import torch.nn.functional as F
_ = torch.manual_seed(0)


class Mnist_CNN(nn.Module):
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


model = Mnist_CNN()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
xb = torch.randn(16, 784)
yb = torch.randint(0, 10, (16,))
for step in range(3):
    loss = F.cross_entropy(model(xb), yb)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(step, loss.item())
print(model.conv2.weight[0, 0])

lenet = nn.Sequential(
    nn.Conv2d(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Conv2d(6, 16, kernel_size=5), nn.Sigmoid(),
    nn.AvgPool2d(kernel_size=2, stride=2),
    nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(),
    nn.Linear(120, 84), nn.Sigmoid(),
    nn.Linear(84, 10))
X = torch.randn(8, 1, 28, 28)
y = torch.randint(0, 10, (8,))
trainer = torch.optim.SGD(lenet.parameters(), lr=0.9)
for step in range(3):
    trainer.zero_grad()
    l = nn.CrossEntropyLoss()(lenet(X), y)
    l.backward()
    trainer.step()
    print(step, l.item())
print(lenet[3].weight.grad[0, 0])

conv = nn.Conv1d(8, 16, 3, padding=1)
seq = torch.randn(4, 8, 40, requires_grad=True)
out = conv(seq)
(out ** 2).mean().backward()
print(out[0, :2, :5])
print(conv.weight.grad[:2, :2])
print(seq.grad[3, 0, :8].tolist())
