# Indexing past the end of a class with __getitem__: the IndexError of the list inside
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
t[5]
