# A training loop refactored step by step, as the "what is torch.nn really" tutorial does it:
# hand-written log-softmax and NLL, then F.cross_entropy, an nn.Module with Parameters,
# nn.Linear, optim, TensorDataset slices, DataLoader (shuffled), a validation loss summed
# over a generator, zip(*[...]) of (loss, count) pairs and a Lambda layer in nn.Sequential.
import torch
import math
import torch.nn.functional as F
from torch import nn, optim
from torch.utils.data import TensorDataset, DataLoader
torch.manual_seed(3)

x_train = torch.rand(200, 20)
y_train = torch.randint(0, 4, (200,))
x_valid = torch.rand(60, 20)
y_valid = torch.randint(0, 4, (60,))
n, c = x_train.shape
x_train.shape, y_train.min(), y_train.max()

weights = torch.randn(20, 4) / math.sqrt(20)
weights.requires_grad_()
bias = torch.zeros(4, requires_grad=True)


def log_softmax(x):
    return x - x.exp().sum(-1).log().unsqueeze(-1)


def model(xb):
    return log_softmax(xb @ weights + bias)


def nll(inp, target):
    return -inp[range(target.shape[0]), target].mean()


def accuracy(out, yb):
    return (torch.argmax(out, dim=1) == yb).float().mean()


bs = 32
xb, yb = x_train[0:bs], y_train[0:bs]
preds = model(xb)
preds[0], preds.shape
print(nll(preds, yb), accuracy(preds, yb))
lr = 0.3
for epoch in range(2):
    for i in range((n - 1) // bs + 1):
        xb = x_train[i * bs:i * bs + bs]
        yb = y_train[i * bs:i * bs + bs]
        loss = nll(model(xb), yb)
        loss.backward()
        with torch.no_grad():
            weights -= weights.grad * lr
            bias -= bias.grad * lr
            weights.grad.zero_()
            bias.grad.zero_()
print(nll(model(xb), yb), accuracy(model(xb), yb))
loss_func = F.cross_entropy
print(loss_func(xb @ weights + bias, yb))


class Logistic(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(20, 4)

    def forward(self, xb):
        return self.lin(xb)


def get_model():
    m = Logistic()
    return m, optim.SGD(m.parameters(), lr=lr)


train_ds = TensorDataset(x_train, y_train)
model, opt = get_model()
for epoch in range(2):
    for i in range((n - 1) // bs + 1):
        xb, yb = train_ds[i * bs: i * bs + bs]
        loss = loss_func(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
print(loss_func(model(xb), yb))

train_dl = DataLoader(train_ds, batch_size=bs, shuffle=True)
valid_dl = DataLoader(TensorDataset(x_valid, y_valid), batch_size=bs * 2)
model, opt = get_model()
for epoch in range(2):
    model.train()
    for xb, yb in train_dl:
        loss = loss_func(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
    model.eval()
    with torch.no_grad():
        valid_loss = sum(loss_func(model(xb), yb) for xb, yb in valid_dl)
    print(epoch, valid_loss / len(valid_dl))


def loss_batch(model, xb, yb, opt=None):
    loss = loss_func(model(xb), yb)
    if opt is not None:
        loss.backward()
        opt.step()
        opt.zero_grad()
    return loss.item(), len(xb)


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


model = nn.Sequential(Lambda(lambda x: x.view(-1, 20)), nn.Linear(20, 8), nn.ReLU(), nn.Linear(8, 4))
opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(2):
    model.train()
    for xb, yb in train_dl:
        loss_batch(model, xb, yb, opt)
    model.eval()
    with torch.no_grad():
        losses, nums = zip(*[loss_batch(model, xb, yb) for xb, yb in valid_dl])
    print(epoch, sum([a * b for a, b in zip(losses, nums)]) / sum(nums), nums)
model
