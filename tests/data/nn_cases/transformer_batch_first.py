import torch
from torch import nn
_ = torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(8, 2, 16, batch_first=True)
enc = nn.TransformerEncoder(layer, 2)
_ = enc.eval()
x = torch.randn(2, 5, 8)
pad = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
with torch.no_grad():
    y = enc(x, src_key_padding_mask=pad)
y[1].round(decimals=3)
with torch.no_grad():
    z = enc(x)
z[0].round(decimals=3)
mha = nn.MultiheadAttention(8, 2, batch_first=True)
_ = mha.eval()
with torch.no_grad():
    o, w = mha(x, x, x, key_padding_mask=pad)
o[1].round(decimals=3)
w[1].round(decimals=3)
enc.train()
with torch.no_grad():
    t = enc(x, src_key_padding_mask=pad)
enc.eval()
t[1, 4].round(decimals=3)
y2 = enc(x, src_key_padding_mask=pad)
y2[1, 3].round(decimals=3)
with torch.no_grad():
    y3 = enc(x, src_key_padding_mask=torch.tensor([[False] * 5, [True, False, False, False, False]]))
y3[1, 0].round(decimals=3)
enc2 = nn.TransformerEncoder(layer, 1, norm=nn.LayerNorm(8))
_ = enc2.eval()
with torch.no_grad():
    y4 = enc2(x, src_key_padding_mask=pad)
y4[1, 3:].round(decimals=3)
