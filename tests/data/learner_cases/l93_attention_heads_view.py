# Multi-head attention written by hand: heads split with view + transpose, attention by
# F.scaled_dot_product_attention, heads merged back with transpose + view (no reshape).
# The CPU flash kernel's output keeps the query's layout, so the merging view works;
# with dropout (the math path) the output is contiguous and the same view fails.
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(2)
B, L, H, D = 2, 5, 3, 4
proj = nn.Linear(H * D, 3 * H * D, bias=False)
x = torch.randn(B, L, H * D)
q, k, v = proj(x).chunk(3, -1)
q = q.view(B, L, H, D).transpose(1, 2)
k = k.view(B, L, H, D).transpose(1, 2)
v = v.view(B, L, H, D).transpose(1, 2)
y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
y.shape, y.stride(), y.is_contiguous()
merged = y.transpose(1, 2).view(B, L, H * D)
merged[0]
merged.sum().backward()
proj.weight.grad[:2]
y2 = F.scaled_dot_product_attention(q.contiguous(), k, v)
y2.stride()
y3 = F.scaled_dot_product_attention(q, k, v, dropout_p=0.2)
y3.stride()
y3.transpose(1, 2).view(B, L, H * D)
