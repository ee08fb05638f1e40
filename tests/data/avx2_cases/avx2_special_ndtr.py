# special.ndtr as ATen composes it: (1 + erf(x * M_SQRT1_2)) * 0.5, graph included
import torch
torch.manual_seed(9)
x = (torch.randn(40) * 3).requires_grad_()
y = torch.special.ndtr(x)
y.tolist()
y.grad_fn
y.grad_fn.next_functions
y.sum().backward()
x.grad.tolist()
torch.special.ndtr(x.detach().double()).tolist()
# special.ndtri as calc_ndtri: polevl fused, the tail's log and sqrt in double
u = torch.rand(40)
torch.special.ndtri(u).tolist()
torch.special.ndtri(u.double()).tolist()
torch.special.ndtri(torch.tensor([0.0, 1.0, 1e-30, 0.9999999, 0.5, 0.13533528, 0.86466473])).tolist()
