# The first lines of the quickstart tutorial, pasted as they are: torchvision is not
# installed next to a plain PyTorch
import torch
from torch import nn
from torch.utils.data import DataLoader
print("imported torch")
from torchvision import datasets
