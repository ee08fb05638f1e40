# cuda(...) on a CPU-only build: which error each spelling gets, for tensors and modules
import torch
from torch import nn

x = torch.arange(3.)
attempts = [lambda: x.cuda(), lambda: x.cuda(0), lambda: x.cuda(device=1), lambda: x.cuda("cuda:1"),
            lambda: x.cuda(torch.device("cuda")), lambda: x.cuda("cpu"), lambda: x.cuda(-2),
            lambda: x.cuda(2.0), lambda: nn.Linear(3, 1).cuda(), lambda: nn.Linear(3, 1).cuda(0),
            lambda: nn.Tanh().cuda(1), lambda: nn.BatchNorm1d(3, affine=False).cuda(1)]
for attempt in attempts:
    try:
        print(attempt())
    except Exception as e:
        print(repr(e))
print(x.device, torch.cuda.is_available())
gpu_x = x.cuda(1)
