import torch
import torch.nn as nn
torch.manual_seed(0)
lin = nn.Linear(2, 2)
lin.register_backward_hook(lambda m, gi, go: print("legacy", len(gi), [None if g is None else tuple(g.shape) for g in gi], go))
x = torch.ones(1, 2, requires_grad=True)
y = lin(x)
print(y.grad_fn)
y.sum().backward()
act = nn.Tanh()
act.register_full_backward_hook(lambda m, gi, go: print("tanh", gi[0].shape, go[0].shape))
act.register_full_backward_pre_hook(lambda m, go: (go[0] * 0,))
z = act(x * 2)
print(z)
z.sum().backward()
print(x.grad)
try:
    lin.register_full_backward_hook(lambda m, gi, go: None)
except RuntimeError as e:
    print(e)
net = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
order = []
for i, m in enumerate(net):
    m.register_full_backward_hook(lambda m, gi, go, i=i: order.append(i))
out = net(torch.ones(4, 2))
print(out.grad_fn)
out.mean().backward()
print(order)
act.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
act(x * 1).sum().backward()
