import torch
import torch.nn as nn
import torch.nn.functional as F
_ = torch.manual_seed(0)
E, H, L, S, N = 8, 2, 4, 5, 3
mha = nn.MultiheadAttention(E, H)
q = torch.randn(L, N, E)
k = torch.randn(S, N, E)
v = torch.randn(S, N, E)
out, w = F.multi_head_attention_forward(q, k, v, E, H, mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.0,
                                        mha.out_proj.weight, mha.out_proj.bias, training=False)
out.shape, w.shape
out[0]
w[1]
ref, rw = mha(q, k, v)
torch.equal(out, ref), torch.equal(w, rw)
mask = torch.triu(torch.ones(L, S, dtype=torch.bool), diagonal=1)
o2, w2 = F.multi_head_attention_forward(q, k, v, E, H, mha.in_proj_weight, mha.in_proj_bias, None, None, False, 0.0,
                                        mha.out_proj.weight, mha.out_proj.bias, attn_mask=mask,
                                        average_attn_weights=False)
w2.shape
w2[0, 1]
o2.sum().backward()
mha.in_proj_weight.grad[0]
o3, w3 = F.multi_head_attention_forward(q[:, 0], k[:, 0], v[:, 0], E, H, mha.in_proj_weight, mha.in_proj_bias,
                                        None, None, False, 0.0, mha.out_proj.weight, mha.out_proj.bias,
                                        need_weights=False)
o3.shape, w3
