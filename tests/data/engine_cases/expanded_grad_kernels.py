# The gradient of a sum or a mean is one value expanded to the input's shape: PyTorch's
# element-wise backward kernels read it as a scalar beside their vectorised body, for a
# contiguous input and for a transposed one alike; gelu's second derivative to the last bit
import torch
import torch.nn.functional as F
torch.manual_seed(3)
for f in (F.silu, F.mish, torch.sigmoid, F.elu, F.gelu, F.softplus):
    xc = (torch.randn(3000) * 2).requires_grad_()
    f(xc).sum().backward()
    xt = (torch.randn(30, 40) * 2).t().requires_grad_()
    f(xt).mean().backward()
    print(xc.grad.sum().item(), xc.grad[::97].tolist())
    print(xt.grad.sum().item(), xt.grad[0, :8].tolist(), xt.grad[:, 0].tolist())
x = (torch.randn(5000) * 3).requires_grad_()
y = F.gelu(x)
g, = torch.autograd.grad(y, x, torch.randn(5000), create_graph=True)
h, = torch.autograd.grad(g, x, torch.randn(5000), create_graph=True)
k, = torch.autograd.grad(h.sum(), x)
h[:2000:97].tolist()
k[:2000:131].tolist()
xt = (torch.randn(30, 40) * 2).t().requires_grad_()
g2, = torch.autograd.grad(F.gelu(xt).sum(), xt, create_graph=True)
h2, = torch.autograd.grad((g2 * g2).sum(), xt)
h2.sum().item(), h2[0].tolist()
