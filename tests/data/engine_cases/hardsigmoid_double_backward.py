import torch
x = torch.tensor([-4.0, -1.0, 0.5, 3.5], requires_grad=True)
g, = torch.autograd.grad(torch.nn.functional.hardsigmoid(x).sum(), x, create_graph=True)
g
g.grad_fn.name()
torch.autograd.grad(g.sum(), x)
