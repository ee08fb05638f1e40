# A Jacobian row by row with vmap over basis vectors: each call differentiates the same
# graph without retain_graph, which PyTorch runs as one batched backward.
N = 4
x = torch.arange(1.0, N + 1).requires_grad_()
y = x ** 3 - 2 * x

def row(v):
    return torch.autograd.grad(y, x, v)[0]

jac = torch.vmap(row)(torch.eye(N))
jac
torch.allclose(jac, torch.diag(3 * x.detach() ** 2 - 2))
w = torch.randn(3, requires_grad=True)
z = w.exp()
torch.func.vmap(lambda v: torch.autograd.grad(z, w, v, retain_graph=True)[0])(torch.eye(3)).shape
torch.autograd.grad(z.sum(), w)[0].shape
torch.autograd.grad(y, x, torch.ones(N))
