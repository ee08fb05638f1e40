import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y * y
h1 = y.register_hook(lambda g: print("y hook", g))
h2 = x.register_hook(lambda g: print("x hook", g))
y.retain_grad()
out = z.sum() + y.sum()
out.backward()
print(y.grad)
print(x.grad)
h1.remove()
x.grad = None
(x * 2 * 2).sum().backward()
print(x.grad)
def double(g):
    return g * 2
x.register_hook(double)
x.grad = None
(x * 3).sum().backward()
print(x.grad)
