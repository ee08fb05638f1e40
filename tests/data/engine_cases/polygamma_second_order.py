import torch
x = torch.tensor([0.75, 1.5, 3.25, 12.0, -0.5], dtype=torch.float64, requires_grad=True)
for n in (1, 2, 3):
    y = torch.polygamma(n, x)
    print(y, y.grad_fn.name())
    print(torch.autograd.grad(y.sum(), x)[0])
g, = torch.autograd.grad(torch.digamma(x).sum(), x, create_graph=True)
print(g.grad_fn.name(), [None if f is None else f.name() for f, _ in g.grad_fn.next_functions])
print(torch.autograd.grad(g.sum(), x)[0])
h, = torch.autograd.grad(torch.i0(x).sum(), x, create_graph=True)
print(h, torch.autograd.grad(h.sum(), x)[0])
