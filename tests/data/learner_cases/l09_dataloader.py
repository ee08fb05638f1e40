import torch
from torch.utils.data import TensorDataset, DataLoader
X = torch.arange(20, dtype=torch.float32).view(10, 2)
y = torch.arange(10)
ds = TensorDataset(X, y)
print(len(ds))
print(ds[3])
loader = DataLoader(ds, batch_size=4)
print(len(loader))
for batch_idx, (xb, yb) in enumerate(loader):
    print(batch_idx, xb.shape, yb.tolist())
loader2 = DataLoader(ds, batch_size=4, drop_last=True)
print(len(loader2), [b[1].tolist() for b in loader2])
torch.manual_seed(0)
shuffled = DataLoader(ds, batch_size=3, shuffle=True)
for xb, yb in shuffled:
    print(yb)
first = next(iter(loader))
print(type(first), len(first))
ds[10]
