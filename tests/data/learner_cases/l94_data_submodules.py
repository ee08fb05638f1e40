# Imports from torch.utils.data's submodules, as the transformer language-model tutorial
# (`from torch.utils.data import dataset`) and older data-loading pages write them.
import torch
from torch.utils.data import dataset
from torch.utils.data.sampler import SequentialSampler, BatchSampler
from torch.utils.data.dataloader import DataLoader
import torch.utils.data.dataset as ds_module
torch.manual_seed(4)
tokens = dataset.TensorDataset(torch.randint(0, 9, (7,)), torch.arange(7))
len(tokens), tokens[3]
parts = ds_module.random_split(tokens, [4, 3])
[len(p) for p in parts]
list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False))
for xb, ib in DataLoader(parts[0], batch_size=3):
    print(xb, ib)
dataset.ConcatDataset([parts[1], parts[0]])[0]
