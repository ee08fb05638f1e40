# isinstance with torch.autograd.Variable (every tensor is one), torch.dtype, torch.layout,
# torch.memory_format and torch.device.
import torch
from torch.autograd import Variable
x = Variable(torch.ones(2), requires_grad=True)
print(isinstance(x, Variable), isinstance(x, torch.Tensor), type(x))
print(isinstance(x * 2, Variable), isinstance(torch.nn.Parameter(torch.ones(1)), Variable))
print(isinstance(3.0, Variable), isinstance([x], Variable), isinstance(x, (Variable, int)))
print(type(x) is Variable)
print(isinstance(x.dtype, torch.dtype), isinstance(torch.float64, torch.dtype), isinstance(x, torch.dtype))
print(isinstance(x.layout, torch.layout), isinstance(torch.contiguous_format, torch.memory_format))
print(isinstance(x.dtype, torch.layout), isinstance(x.dtype, (torch.dtype, int)), isinstance(3, torch.dtype))
print(isinstance(x.device, torch.device), isinstance("cpu", torch.device))
print(isinstance(x.shape, torch.Size), isinstance(x.shape, tuple))
