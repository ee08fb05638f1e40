# Gradients of p-norms (p = 2.5, 3, 4, 1, inf and -1.5) along a dim and over a whole tensor with
# zeros in it, float32 and float64, bit for bit: PyTorch's order of products and its pow kernels.
import torch
torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    base = torch.randn(3, 5, dtype=dt)
    base[0, 1] = 0.0
    base[2] = 0.0
    base[1, 2] = -0.0
    for p in [2.5, 3, 4, 1, float('inf'), -1.5]:
        for dim in [None, 1, 0]:
            if dim is None and p == 2.5:
                continue
            x = base.clone().requires_grad_()
            n = x.norm(p=p) if dim is None else x.norm(p=p, dim=dim)
            (n * torch.arange(1., 1 + n.numel(), dtype=dt).view(n.shape)).sum().backward()
            print(dt, p, dim, x.grad.tolist())
    y = base.clone().requires_grad_()
    other = base.flip(0).clone()
    for p in [1, 2, 3]:
        y.grad = None
        torch.dist(y, other, p=p).backward()
        print("dist", p, y.grad.tolist())
    z = (base + 0.5).requires_grad_()
    g, = torch.autograd.grad(z.norm(p=3, dim=1).sum(), z, create_graph=True)
    g.sum().backward()
    print("second order", g.tolist(), z.grad.tolist())
