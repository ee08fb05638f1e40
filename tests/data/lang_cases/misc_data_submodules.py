import torch
import torch.utils.data.sampler as smp
from torch.utils.data import TensorDataset, random_split, Subset, ConcatDataset, WeightedRandomSampler, BatchSampler, DataLoader
torch.utils.data.dataloader.DataLoader is DataLoader
torch.utils.data.dataset.Subset is Subset
smp.BatchSampler is BatchSampler
ds = TensorDataset(torch.arange(10.), torch.arange(10) % 3)
g = torch.Generator().manual_seed(42)
tr, va, te = random_split(ds, [0.6, 0.2, 0.2], generator=g)
len(tr), len(va), len(te), tr.indices, va.indices
tr[0]
sub = Subset(ds, [9, 0, 4])
[sub[i][1].item() for i in range(len(sub))]
sub.indices, sub.dataset is ds
cat = ConcatDataset([sub, tr])
len(cat), cat.cumulative_sizes, cat[3], cat[-1]
_ = torch.manual_seed(1)
list(WeightedRandomSampler([0.1, 0.9, 0.4, 2.0], 6))
list(WeightedRandomSampler(torch.tensor([0.1, 0.9, 0.4, 2.0]), 3, replacement=False, generator=torch.Generator().manual_seed(3)))
list(BatchSampler(range(7), 3, True)), len(BatchSampler(range(7), 3, False))
dl = DataLoader(ds, batch_sampler=BatchSampler(WeightedRandomSampler([1.0] * 10, 4, generator=torch.Generator().manual_seed(5)), 2, False))
[b[0] for b in dl]
torch.utils.data.dataloader.default_collate([(1, 2.0), (3, 4.0)])
