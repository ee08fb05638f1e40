import math
import torch
from torch import nn
_ = torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.1)
layer
enc = nn.TransformerEncoder(layer, num_layers=2)
enc
sum(p.numel() for p in enc.parameters())
list(enc.state_dict().keys())[:8]
torch.equal(enc.layers[0].linear1.weight, enc.layers[1].linear1.weight)
enc.layers[0].linear1.weight is layer.linear1.weight
src = torch.randn(6, 3, 8)
mask = nn.Transformer.generate_square_subsequent_mask(6)
out = enc(src, mask)
out.shape
out[0].round(decimals=3)
out.grad_fn
loss = out.pow(2).mean()
loss.backward()
enc.layers[1].norm2.bias.grad.round(decimals=3)
enc.eval()
with torch.no_grad():
    ev = enc(src, mask)
ev[2].round(decimals=3)
opt = torch.optim.SGD(enc.parameters(), lr=0.1)
enc.train()
for step in range(3):
    opt.zero_grad()
    l = enc(src, mask).pow(2).mean()
    l.backward()
    opt.step()
    print(round(l.item(), 4))
bf = nn.TransformerEncoderLayer(8, 2, 16, 0.0, activation="gelu", batch_first=True, norm_first=True)
bf
y = bf(torch.randn(2, 5, 8), src_key_padding_mask=torch.tensor([[False] * 5, [False] * 3 + [True] * 2]))
y[1].round(decimals=3)
dec_layer = nn.TransformerDecoderLayer(8, 2, 16, 0.0)
dec = nn.TransformerDecoder(dec_layer, 1)
dec
t = dec(torch.randn(4, 3, 8), out.detach())
t[0].round(decimals=3)
model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=12, dropout=0.0)
model
model.encoder.layers[0].self_attn.in_proj_weight[0].round(decimals=4)
tr = model(torch.randn(5, 2, 8), torch.randn(4, 2, 8), tgt_mask=nn.Transformer.generate_square_subsequent_mask(4))
tr[3].round(decimals=3)
nn.TransformerEncoderLayer(8, 2, activation="tanh")
