import torch
from torch import nn
_ = torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
x = torch.randn(2, 5, 8)
pad = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
_ = torch.manual_seed(1)
a = layer(x, src_key_padding_mask=pad)
a[1].round(decimals=3)
_ = torch.manual_seed(1)
b = layer(x)
b[1].round(decimals=3)
_ = torch.manual_seed(1)
mha = layer.self_attn
c = mha(x, x, x, key_padding_mask=pad, need_weights=False)[0]
c[1].round(decimals=3)
_ = torch.manual_seed(1)
c = mha(x, x, x, key_padding_mask=pad)[0]
c[1].round(decimals=3)
