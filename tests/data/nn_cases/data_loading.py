import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split

torch.manual_seed(0)
ds = TensorDataset(torch.arange(10.), torch.arange(10))
for x, y in DataLoader(ds, batch_size=4, shuffle=True):
    print(x, y)
for x, y in DataLoader(ds, batch_size=4, shuffle=True, drop_last=True):
    print(x, y)
for x, y in DataLoader(ds, batch_size=3):
    print(x, y)
print(torch.rand(2))
ds[3]
len(ds)
len(DataLoader(ds, batch_size=4))
len(DataLoader(ds, batch_size=4, drop_last=True))
a, b = random_split(range(10), [0.7, 0.3])
print(list(a), list(b))
a, b = random_split(ds, [6, 4])
print(len(a), a[0])
X = torch.randn(8, 3)
Y = torch.randint(0, 2, (8,))
loader = DataLoader(TensorDataset(X, Y), batch_size=5, shuffle=True)
for epoch in range(2):
    for xb, yb in loader:
        print(epoch, xb.shape, yb)
g = torch.Generator().manual_seed(3)
print([b[1].tolist() for b in DataLoader(ds, batch_size=5, shuffle=True, generator=g)])
print(torch.rand(1))
