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
