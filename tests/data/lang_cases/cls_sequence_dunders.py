# A running-totals helper and a Dataset of our own: __len__ and __getitem__ in user classes
import torch
from torch.utils.data import Dataset, DataLoader


class Totals:
    def __init__(self, n):
        self.sums = [0.0] * n

    def add(self, *values):
        self.sums = [s + float(v) for s, v in zip(self.sums, values)]

    def __getitem__(self, k):
        return self.sums[k]

    def __len__(self):
        return len(self.sums)


t = Totals(2)
t.add(torch.tensor(1.5), 3)
t.add(0.25, torch.tensor(2))
t[0], t[1], t[-1], len(t)
t[0] / t[1]
list(t)
first, second = t
print(first, second, 0.25 in t, sum(t))


class Squares(Dataset):
    def __init__(self, n):
        self.x = torch.linspace(-1, 1, n)

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, i):
        return self.x[i], self.x[i] ** 2


ds = Squares(6)
len(ds)
ds[2]
for xb, yb in DataLoader(ds, batch_size=4):
    print(xb, yb)
torch.manual_seed(0)
for xb, yb in DataLoader(ds, batch_size=3, shuffle=True):
    print(xb.shape, yb.sum().item())
