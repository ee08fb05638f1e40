# nn.LazyConv2d / LazyConv1d: in_channels from the first batch, then an ordinary Conv
import torch
from torch import nn

torch.manual_seed(3)
conv = nn.LazyConv2d(4, kernel_size=(3, 2), stride=2, padding=1)
conv
conv.weight
images = torch.rand(2, 3, 7, 6)
out = conv(images)
out.shape
conv
conv.weight.shape, conv.bias
conv.weight[1, 2]
out.sum().backward()
conv.weight.grad.shape

net = nn.Sequential(nn.LazyConv2d(6, 5, padding=2), nn.Sigmoid(), nn.AvgPool2d(2),
                    nn.Flatten(), nn.LazyLinear(3))
net(torch.rand(1, 1, 8, 8))
net

seq = nn.LazyConv1d(2, 3, bias=False)
seq(torch.rand(5, 9)).shape
seq
seq.weight.sum()

odd = nn.LazyConv2d(4, 3, groups=2)
odd(torch.rand(1, 3, 5, 5))
