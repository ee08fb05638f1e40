# clone keeps a dense tensor's order of strides (torch.preserve_format), and later kernels
# walk the copy in that order: the sums below add in memory order
import torch
g = torch.manual_seed(0)
x = torch.randn(37, 53)
y = x.t().clone()
y.stride()
y.is_contiguous()
x.t()[::2].clone().stride()
x.t().clone(memory_format=torch.contiguous_format).stride()
x.t().clone(memory_format=torch.preserve_format).is_contiguous()
y.sum().item()
x.t().contiguous().sum().item()
y.sum(0)[:3].tolist()
(y * 0.5).exp().sum().item()
