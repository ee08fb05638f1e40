# Calling or reading a missing attribute of PyTorch's C types names them as Python does
# ('torch.Size', 'torch.dtype', ...); a Parameter is a 'Parameter'; a tensor's C method read
# without a call is a 'builtin_function_or_method' (x.size[0]), its Python ones 'method'.
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
for f in [lambda: x.size[0], lambda: x.backward[0], lambda: iter(x.size), lambda: len(x.sum), lambda: x.size + 1,
          lambda: x.sum.foo]:
    try:
        f()
    except (TypeError, AttributeError) as e:
        print(e)
print(type(x.sum), type(x.backward), x.sum == x.sum, x.add(1), list(map(x.mul, [1, 2])))
x.dtype()
