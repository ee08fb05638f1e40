import torch
torch.manual_seed(3)
# asinh and acosh: the C library's asinhf/acoshf on every element; atanh: Sleef's atanhf in the
# 16-element steps, libm's in the tail; lgamma: Sleef's lgammaf everywhere
x = torch.randn(45) * 3
torch.asinh(x).tolist()
torch.acosh(x.abs() + 1).tolist()
torch.atanh(torch.tanh(x * 0.4)).tolist()
torch.atanh(torch.rand(45) * 2 - 1).tolist()
torch.lgamma(x).tolist()
torch.lgamma(x.reshape(5, 9).t()).tolist()
torch.lgamma(torch.tensor([0.0, -0.0, -1.0, -2.5, 1e-30, 1e-20, 0.5, 1.0, 2.0, 2.3, 7.0, 30.0, 1e20, float('inf'), float('-inf')])).tolist()
torch.special.gammaln(torch.rand(20) * 10).tolist()
x.asinh_().tolist()
