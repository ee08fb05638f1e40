# BatchNorm backward over image planes (batch_norm_cpu_backward_contiguous_impl: the dot product
# fuses its partial last vector), evaluation mode's invstd recomputed with a double eps, and
# float64 batch norm forward, backward and running statistics
import torch
from torch import nn
torch.manual_seed(6)
torch.set_num_threads(2)
for shape in ((2, 5, 9), (4, 3, 4, 4), (3, 7, 13)):
    bn = nn.BatchNorm1d(shape[1]) if len(shape) == 3 else nn.BatchNorm2d(shape[1])
    with torch.no_grad():
        bn.weight.mul_(torch.rand(shape[1]) + 0.5)
    x = (torch.randn(*shape) * 2 + 0.3).requires_grad_()
    (bn(x) * torch.randn(*shape)).sum().backward()
    print(x.grad.flatten()[:20].tolist(), bn.weight.grad.tolist(), bn.bias.grad.tolist())
    bn.eval()
    x.grad = None
    (bn(x) * torch.randn(*shape)).sum().backward()
    print(x.grad.flatten()[:20].tolist(), bn.weight.grad.tolist())
for shape in ((2, 17), (32, 10), (2, 5, 9), (4, 3, 4, 4)):
    bn = (nn.BatchNorm1d(shape[1]) if len(shape) < 4 else nn.BatchNorm2d(shape[1])).double()
    x = (torch.randn(*shape, dtype=torch.float64) * 2 + 0.3).requires_grad_()
    y = bn(x)
    (y * torch.randn(*shape, dtype=torch.float64)).sum().backward()
    print(y.flatten()[:12].tolist(), bn.running_var.tolist())
    print(x.grad.flatten()[:12].tolist(), bn.weight.grad.tolist(), bn.bias.grad.tolist())
    bn.eval()
    print(bn(x).flatten()[:12].tolist())
