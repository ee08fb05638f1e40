import torch
from torch.autograd.functional import vjp, jvp, hvp, vhp, jacobian, hessian
x = torch.tensor([1.0, 2.0])
def f(t):
    return t * t
calls = [
    lambda: vjp(f, x, torch.ones(3)),
    lambda: vjp(f, x),
    lambda: vjp(lambda a, b: (a * b, a + b), (x, x), (torch.ones(2), torch.ones(3))),
    lambda: vjp(lambda a, b: (a * b, a + b), (x, x), torch.ones(2)),
    lambda: vjp(f, (x, 3.0), torch.ones(2)),
    lambda: jvp(f, x),
    lambda: jvp(f, torch.tensor(2.0)),
    lambda: jvp(lambda t: 5, x, torch.ones(2)),
    lambda: hvp(lambda t: (t ** 3).sum(), x, torch.ones(1)),
    lambda: vhp(lambda t: t ** 3, x, torch.ones(2)),
    lambda: vhp(lambda t: ((t ** 3).sum(),), x, torch.ones(2)),
    lambda: hvp(lambda t: (t ** 3).sum(), torch.tensor([2.0])),
    lambda: jacobian(f, [x]),
    lambda: jacobian(lambda t: [t], x),
    lambda: hessian(lambda t: 4.0, x),
]
for i, call in enumerate(calls):
    try:
        print(i, call())
    except (RuntimeError, TypeError) as e:
        print(i, type(e), e)
jacobian(f, (x, 2))
