import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
compiled = torch.compile(model)
compiled
type(compiled)
x = torch.randn(5, 3)
y = compiled(x)
y
y.grad_fn.name()
loss = y.pow(2).mean()
loss.backward()
model[0].weight.grad
list(compiled.state_dict().keys())
compiled.eval()
model.training
def f(a, b):
    return (a * b).sin().sum()
g = torch.compile(f)
g is f
a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
out = g(a, torch.tensor([1.0, 2.0, 3.0]))
out
out.backward()
a.grad
@torch.compile
def h(t):
    return t * 3 + 1
h(torch.ones(2))
h(a)
opt = torch.compile(model, mode="reduce-overhead")
opt(x).shape
with torch.no_grad():
    z = compiled(x)
z.requires_grad
