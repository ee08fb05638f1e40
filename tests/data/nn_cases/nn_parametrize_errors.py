import torch
from torch import nn
import torch.nn.utils.parametrize as P

class Shrink(nn.Module):
    def forward(self, W):
        return W[:1]

class NoInverse(nn.Module):
    def forward(self, W):
        return W.abs()

lin = nn.Linear(2, 2)
try:
    P.register_parametrization(lin, "weight", Shrink())
except ValueError as e:
    print(str(e).splitlines()[0])
P.register_parametrization(lin, "weight", NoInverse())
try:
    lin.weight = torch.zeros(2, 2)
except RuntimeError as e:
    print(e)
P.remove_parametrizations(lin, "bias")
