import torch
from torch import nn
_ = torch.manual_seed(0)
mha = nn.MultiheadAttention(8, 2)
mha
[(n, p.shape) for n, p in mha.named_parameters()]
list(mha.state_dict().keys())
mha.in_proj_weight[:2]
mha.out_proj.weight[0]
mha.in_proj_bias[:4]
x = torch.randn(5, 3, 8)
out, w = mha(x, x, x)
out.shape
w.shape
out[0]
w[0]
out.grad_fn
w.grad_fn
out.sum().backward()
mha.out_proj.bias.grad
mask = nn.Transformer.generate_square_subsequent_mask(5)
mask
o2, w2 = mha(x, x, x, attn_mask=mask, average_attn_weights=False)
w2.shape
w2[1, 1]
kpm = torch.tensor([[False] * 5, [False, False, False, True, True], [False] * 4 + [True]])
o3, w3 = mha(x, x, x, key_padding_mask=kpm)
w3[1]
o4, none = mha(x, x, x, need_weights=False)
none
o4[1]
bf = nn.MultiheadAttention(8, 4, batch_first=True, kdim=6, vdim=5, bias=False)
bf
[(n, p.shape) for n, p in bf.named_parameters()]
q = torch.randn(2, 3, 8)
k = torch.randn(2, 4, 6)
v = torch.randn(2, 4, 5)
a, aw = bf(q, k, v)
a.shape
aw.shape
a[0].round(decimals=3)
nn.MultiheadAttention(6, 3, add_bias_kv=True, add_zero_attn=True)
u = torch.randn(4, 6)
m3 = nn.MultiheadAttention(6, 3, add_bias_kv=True, add_zero_attn=True)
r, rw = m3(u, u, u)
r.shape
rw.shape
rw
nn.MultiheadAttention(8, 3)
