import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
def show(grad):
    print("grad of y:", grad)
handle = y.register_hook(show)
y.retain_grad()
z = (y * 3).sum()
z.backward()
print(y.grad, x.grad)
handle.remove()
x.grad = None
x.register_hook(lambda g: g.clamp(max=5))
(x ** 3).sum().backward()
print(x.grad)
lin = torch.nn.Linear(2, 1)
lin.weight.register_hook(lambda g: print("weight grad shape", g.shape))
lin(x).sum().backward()
y.register_hook(42)
