# digamma of float64 as calc_digamma(double) (its series fused, glibc's log); lgamma's backward
import torch
torch.manual_seed(8)
x = (torch.randn(30, dtype=torch.float64) * 6).requires_grad_()
torch.digamma(x).tolist()
torch.digamma(torch.tensor([0.0, -0.0, -3.0, 10.0, 1e18, 0.5, -2.5], dtype=torch.float64)).tolist()
torch.lgamma(x).sum().backward()
x.grad.tolist()
