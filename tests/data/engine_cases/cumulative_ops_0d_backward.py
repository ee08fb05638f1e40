import torch
for name in ["cumsum", "cumprod", "logcumsumexp", "cummax", "cummin"]:
    x = torch.tensor(2.0, requires_grad=True)
    out = getattr(x, name)(0)
    y = out[0] if isinstance(out, tuple) else out
    y.backward(torch.tensor(3.0), retain_graph=True)
    print(name, y, x.grad)
    g, = torch.autograd.grad(y, x, create_graph=True)
    print(g)
