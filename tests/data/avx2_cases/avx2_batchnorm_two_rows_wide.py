# BatchNorm1d training on no more rows than threads: 16 < C <= 2048 channels are summed channel
# by channel in double (the squares rounded to float), fewer channels tile by tile in float
import torch
from torch import nn
torch.manual_seed(5)
torch.set_num_threads(2)
for c in (6, 16, 17, 20, 33):
    bn = nn.BatchNorm1d(c)
    x = torch.randn(2, c) * 2 + 0.3
    y = bn(x)
    print(c, y.tolist())
    print(bn.running_mean.tolist())
    print(bn.running_var.tolist())
