import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.ones(2, 3)
calls = [lambda: x.split(0), lambda: x.split(-1), lambda: torch.ones(0).split(0), lambda: x.split(2, dim=1),
         lambda: x.split(0, dim=1), lambda: nn.ReLU()(3.0), lambda: F.relu([1.0]), lambda: nn.Tanh()(2),
         lambda: nn.Sigmoid()(1.0), lambda: nn.ReLU(inplace=True)(1)]
for i, f in enumerate(calls):
    try:
        print(i, f())
    except (RuntimeError, TypeError, AttributeError) as e:
        print(i, type(e), e)
t = torch.ones(2)
for name in ["exp", "sum", "eq", "clamp", "maximum", "add", "mul", "pow", "remainder", "sqrt"]:
    try:
        print(name, getattr(torch, name)(2, t) if name in ("eq", "add", "mul", "pow", "remainder", "maximum") else getattr(torch, name)([1.0, 4.0]))
    except TypeError as e:
        print(name, str(e).splitlines()[0])
torch.tanh(0.5)
