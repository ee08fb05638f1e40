# Old tutorials start with a __future__ import
from __future__ import print_function
from __future__ import division, absolute_import
import torch
print(7 / 2, torch.ones(2))
