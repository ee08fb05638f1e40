import torch
import torch.nn as nn
_ = torch.manual_seed(0)
nz, ngf = 16, 8
G = nn.Sequential(
    nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False),
    nn.BatchNorm2d(ngf * 4),
    nn.ReLU(True),
    nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
    nn.BatchNorm2d(ngf * 2),
    nn.ReLU(True),
    nn.ConvTranspose2d(ngf * 2, 3, 4, 2, 1, bias=False),
    nn.Tanh(),
)
z = torch.randn(2, nz, 1, 1)
h = z
for layer in G:
    h = layer(h)
    print(tuple(h.shape))
G[0].weight.shape
sum(p.numel() for p in G.parameters())
up = nn.ConvTranspose2d(4, 2, 3, stride=(2, 1), padding=1, output_padding=(1, 0))
up(torch.randn(1, 4, 5, 5)).shape
up.weight.shape, up.bias.shape
nn.ConvTranspose2d(4, 2, 3, stride=(2, 3), output_padding=(0, 3))(torch.randn(1, 4, 5, 5))
