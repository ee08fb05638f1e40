import torch
import torch.nn as nn
import torch.nn.functional as F

images = torch.rand(8, 3, 28, 28, device="meta")
for kernel, stride, padding in [(3, 1, 0), (3, 2, 1), (5, 1, 2), (4, 2, 1)]:
    conv = nn.Conv2d(3, 6, kernel, stride=stride, padding=padding, device="meta")
    print(kernel, stride, padding, conv(images).shape)

for size in [2, 3]:
    print(nn.MaxPool2d(size)(images).shape, nn.AvgPool2d(size, stride=1)(images).shape)


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(8, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 64)
        self.fc2 = nn.Linear(64, 10)
        self.norm = nn.BatchNorm1d(64)
        self.drop = nn.Dropout(0.5)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = self.drop(F.relu(self.norm(self.fc1(x))))
        return self.fc2(x)


def show_shape(module, inputs, output):
    print(module, tuple(inputs[0].shape), "->", tuple(output.shape))


_ = torch.manual_seed(1)
net = SmallNet().to("meta")
for layer in net.children():
    h = layer.register_forward_hook(show_shape)
logits = net(images)
logits
logits.device
net.fc1.weight
net.norm.running_mean
loss = F.cross_entropy(logits, torch.randint(0, 10, (8,), device="meta"))
loss
loss.backward()
net.conv1.weight.grad
net.conv1.weight.grad.shape
torch.randn(3)
seq = nn.Sequential(nn.Embedding(100, 16), nn.LSTM(16, 32, batch_first=True))
seq = seq.to("meta")
tokens = torch.randint(0, 100, (4, 12), device="meta")
out, (h, c) = seq(tokens)
out.shape, h.shape, c.shape
out
attn = nn.MultiheadAttention(32, 4, batch_first=True, device="meta")
a, w = attn(out, out, out)
a.shape, w.shape
