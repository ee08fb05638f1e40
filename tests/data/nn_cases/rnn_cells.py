import torch
from torch import nn
_ = torch.manual_seed(0)
rc = nn.RNNCell(3, 4)
rc
[(n, p.shape) for n, p in rc.named_parameters()]
rc.weight_ih
x = torch.randn(5, 2, 3)
h = torch.zeros(2, 4)
for t in range(5):
    h = rc(x[t], h)
h
h.grad_fn
h.sum().backward()
rc.bias_hh.grad
nn.RNNCell(3, 4, bias=False, nonlinearity='relu')
nn.RNNCell(3, 4, nonlinearity='relu')(torch.randn(3)).shape
lc = nn.LSTMCell(3, 4)
lc
lc.bias_hh
hx, cx = lc(x[0])
hx
cx
hx.grad_fn
cx.grad_fn
hx, cx = torch.zeros(2, 4), torch.zeros(2, 4)
outs = []
for t in range(5):
    hx, cx = lc(x[t], (hx, cx))
    outs.append(hx)
out = torch.stack(outs)
out[-1].tolist()
out.pow(2).mean().backward()
lc.weight_ih.grad[0].tolist()
lc.bias_ih.grad[:4].tolist()
lc(torch.randn(3))[1].shape
gc = nn.GRUCell(3, 4)
gc
g = gc(x[0])
g.grad_fn
g = gc(x[1], g)
g.tolist()
g.sum().backward()
gc.weight_hh.grad[5].tolist()
gc(torch.randn(3), torch.zeros(4)).shape
nn.GRUCell(3, 4, bias=False).state_dict().keys()
rc(torch.randn(1, 2, 3))
