import torch
import torch.nn.functional as F
_ = torch.manual_seed(0)
x = torch.randn(1, 2, 5, requires_grad=True)
x2 = torch.randn(1, 2, 4, 4, requires_grad=True)
for m in ["reflect", "replicate", "circular"]:
    a = F.pad(x, (2, 1), mode=m)
    b = F.pad(x2, (1, 1, 2, 0), mode=m)
    print(a, b[0, 1])
    (a * torch.arange(16.0).view(1, 2, 8)).sum().backward()
    (b * b).sum().backward()
print(x.grad, x2.grad)
for bad in [lambda: F.pad(x, (5, 1), mode="reflect"), lambda: F.pad(x[0, 0], (1, 1), mode="reflect"),
            lambda: F.pad(x, (6, 1), mode="circular")]:
    try:
        bad()
    except (RuntimeError, NotImplementedError) as err:
        print(err)
