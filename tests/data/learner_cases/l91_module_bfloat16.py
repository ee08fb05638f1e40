# A module cast to bfloat16 (as the swap_tensors recipe does with m.bfloat16()), then
# back to float32; and the message for an update written with too many arguments.
import torch
import torch.nn as nn
torch.manual_seed(7)
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
m.bfloat16()
m[0].weight.dtype
m[2].bias
x = torch.randn(5, 3)
m(x.bfloat16())
m(x.bfloat16()).sum().backward()
m[2].bias.grad
m.float()
m[0].bias.dtype
m(x)
g = m[0].weight.grad
g.addcmul(g, g, g, g)
