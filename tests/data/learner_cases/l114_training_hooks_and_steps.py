# Watching gradients while training: tensor hooks, retain_grad, parameter hooks that zero the
# gradient, forgetting zero_grad, and optimizer constructor mistakes.
import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
grads = {}
def save_grad(name):
    def hook(g):
        grads[name] = g
    return hook
x = torch.randn(4, 2)
h = model[0](x)
h.register_hook(save_grad("h"))
act = model[1](h)
act.retain_grad()
model[2](act).mean().backward()
print(grads["h"].shape, act.grad.shape, torch.allclose(grads["h"], act.grad * (h > 0)))
handles = [p.register_hook(lambda g: g * 0) for p in model.parameters()]
model.zero_grad()
model(x).sum().backward()
print([p.grad.abs().sum().item() for p in model.parameters()])
for hd in handles:
    hd.remove()
w = torch.tensor([1.0, -1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
for i in range(3):
    (w ** 2).sum().backward()
    print(i, w.grad)
    opt.step()
print(w)
for make in [lambda: torch.optim.SGD(w, lr=0.1), lambda: torch.optim.SGD([torch.ones(2)], lr=-1),
             lambda: torch.optim.Adam([w], lr=0.1, betas=(1.0, 0.9)), lambda: torch.optim.SGD([], lr=0.1)]:
    try:
        make()
    except (TypeError, ValueError) as e:
        print(e)
opt.zero_grad()
print(w.grad)
