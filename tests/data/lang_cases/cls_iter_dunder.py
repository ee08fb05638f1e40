# A loader of our own that reshapes each batch on the way out: __len__ and __iter__
import torch
from torch.utils.data import TensorDataset, DataLoader


class Reshaped:
    def __init__(self, dl, func):
        self.dl = dl
        self.func = func

    def __len__(self):
        return len(self.dl)

    def __iter__(self):
        for b in self.dl:
            yield self.func(*b)


def to_images(x, y):
    return x.view(-1, 1, 2, 2), y


xs = torch.arange(24.).view(6, 4)
ys = torch.tensor([0, 1, 0, 1, 1, 0])
loader = Reshaped(DataLoader(TensorDataset(xs, ys), batch_size=4), to_images)
len(loader)
for xb, yb in loader:
    print(xb.shape, yb.tolist())
batches = list(loader)
len(batches), batches[1][0].sum().item()
it = iter(loader)
next(it)[1]
sum(yb.sum() for _, yb in loader)
[xb.shape[0] for xb, _ in loader]


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n, 0, -1))


print(list(Countdown(3)), sorted(Countdown(4)), max(Countdown(5)))
a, b = Countdown(2)
print(a, b, 2 in Countdown(3))
for k, v in zip(Countdown(2), loader):
    print(k, v[1])
