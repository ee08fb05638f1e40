import torch
_ = torch.manual_seed(0)
from torch.utils.data.dataset import random_split
a, b = random_split(range(5), [2, 3])
list(a), list(b)
random_split(range(5), [3, 3])
