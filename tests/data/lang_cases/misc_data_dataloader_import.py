import torch
from torch.utils.data.dataloader import DataLoader, default_collate
from torch.utils.data.dataset import TensorDataset
from torch.utils.data.sampler import SequentialSampler, RandomSampler
ds = TensorDataset(torch.arange(5.), torch.arange(5) ** 2)
loader = DataLoader(ds, batch_size=2, sampler=SequentialSampler(range(5)))
for x, y in loader:
    print(x, y)
default_collate([{'a': torch.ones(2), 'b': 1}, {'a': torch.zeros(2), 'b': 2}])
g = torch.Generator().manual_seed(7)
list(RandomSampler(range(6), generator=g))
