import torch
from torch.utils.data import Dataset, DataLoader

class Squares(Dataset):
    def __init__(self, n):
        self.x = torch.arange(n, dtype=torch.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.x[i] ** 2

ds = Squares(7)
print(len(ds))
print(ds[2])
print(ds[-1])
loader = DataLoader(ds, batch_size=3)
for a, b in loader:
    print(a, b)
total = 0
for a, b in DataLoader(ds, batch_size=2):
    total += b.sum().item()
print(total)
class Pairs(Dataset):
    def __init__(self):
        self.items = [(torch.tensor([1., 2.]), 0), (torch.tensor([3., 4.]), 1), (torch.tensor([5., 6.]), 1)]
    def __len__(self):
        return len(self.items)
    def __getitem__(self, idx):
        return self.items[idx]
for xb, yb in DataLoader(Pairs(), batch_size=2):
    print(xb, yb)
print(Pairs()[5])
