import torch
from torch import nn

nn.LayerNorm(3, device="cpu").weight.device
nn.Conv2d(1, 2, 3, device=torch.device("cpu")).bias.device
nn.Linear(2, 3, device=None).weight.shape
try:
    nn.Conv2d(1, 2, 3, device=torch.device("cuda"))
except AssertionError as e:
    print("Conv2d:", e)
try:
    nn.Linear(2, 3, device="foo")
except RuntimeError as e:
    print(str(e)[:40])
nn.Embedding(4, 2, device="cuda")
