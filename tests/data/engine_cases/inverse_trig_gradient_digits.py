import torch
# gradients of the inverse trig/hyperbolic functions and erf, printed to the last digit
u = torch.tensor([-0.93, -0.61, -0.2, 0.05, 0.37, 0.72, 0.88], requires_grad=True)
w = torch.tensor([1.5, -0.25, 2.0, 0.75, -1.25, 0.3, 3.0])
for name in ("asin", "acos", "asinh", "erf", "erfc", "erfinv"):
    u.grad = None
    (getattr(torch, name)(u) * w).sum().backward()
    print(name, u.grad.tolist())
v = torch.tensor([1.1, 1.6, 2.3, 4.7, 9.25], requires_grad=True)
torch.acosh(v).sum().backward()
v.grad.tolist()
g, = torch.autograd.grad(torch.asin(u).sum(), u, create_graph=True)
g.grad_fn.name(), [None if f is None else f.name() for f, _ in g.grad_fn.next_functions]
[round(h, 4) for h in torch.autograd.grad(g.sum(), u)[0].tolist()]
