import torch
from torch.utils.data import (DataLoader, TensorDataset, Sampler, SequentialSampler, RandomSampler,
                              BatchSampler, WeightedRandomSampler, SubsetRandomSampler, IterableDataset)
_ = torch.manual_seed(0)
ds = TensorDataset(torch.arange(10.), torch.arange(10) % 3)
list(SequentialSampler(ds))
list(RandomSampler(ds))
list(RandomSampler(ds, replacement=True, num_samples=40))
list(RandomSampler(ds, num_samples=13))
len(RandomSampler(ds, num_samples=13))
g = torch.Generator().manual_seed(3)
list(RandomSampler(ds, generator=g))
list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False))
list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True))
len(BatchSampler(range(10), 4, False))
w = WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 8)
list(w)
list(WeightedRandomSampler([1, 2, 3, 4], 4, replacement=False))
list(SubsetRandomSampler([2, 4, 6, 8]))
dl = DataLoader(ds, batch_size=4, sampler=SubsetRandomSampler(range(7)))
len(dl)
[b[0].tolist() for b in dl]
dl2 = DataLoader(ds, batch_sampler=BatchSampler(RandomSampler(ds), 3, True))
len(dl2)
for x, y in dl2:
    print(x, y)
dl3 = DataLoader(ds, sampler=[9, 0, 5], batch_size=2)
[b[1].tolist() for b in dl3]
dl4 = DataLoader(ds, batch_size=None, sampler=range(3))
[b for b in dl4]
dl5 = DataLoader(ds, batch_size=3, shuffle=True)
type(dl5.sampler)
type(dl5.batch_sampler)
dl5.batch_size
[b[0].tolist() for b in dl5]
wdl = DataLoader(ds, batch_size=5, sampler=WeightedRandomSampler(torch.ones(10), 10))
[b[0].tolist() for b in wdl]
isinstance(RandomSampler(ds), Sampler)
isinstance(dl5.sampler, Sampler)
DataLoader(ds, batch_sampler=BatchSampler(range(10), 2, False), batch_size=2)
