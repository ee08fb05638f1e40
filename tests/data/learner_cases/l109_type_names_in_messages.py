# Calling or reading a missing attribute of PyTorch's C types names them as Python does
# ('torch.Size', 'torch.dtype', ...); a Parameter is a 'Parameter'.
import torch
x = torch.ones(2, 3)
objs = [x.shape, x.dtype, x.device, x.layout, torch.contiguous_format, torch.finfo(torch.float32),
        torch.iinfo(torch.int32), x.max(0), torch.nn.Parameter(torch.ones(1)), x, 3, [1]]
for o in objs:
    try:
        o.foo
    except AttributeError as e:
        print(e)
    try:
        o()
    except TypeError as e:
        print(e)
try:
    x.shape(0)
except TypeError as e:
    print(e)
x.dtype()
