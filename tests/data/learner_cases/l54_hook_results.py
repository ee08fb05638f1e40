import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
def widen(g):
    return torch.zeros(3)
for hook in [widen, lambda g: g.double(), lambda g: 5, lambda g: g.reshape(2, 1), lambda g: g * 10]:
    x.grad = None
    handle = x.register_hook(hook)
    try:
        (x * 2).sum().backward()
        print("ok", x.grad)
    except (RuntimeError, TypeError) as e:
        print(type(e), e)
    handle.remove()
y = x * 3
y.register_hook(lambda g: g.long())
y.sum().backward()
