import torch
x = torch.randn(3, requires_grad=True)
print(x.requires_grad)
print((x ** 2).requires_grad)
with torch.no_grad():
    print((x ** 2).requires_grad)
    y = x * 2
print(y.requires_grad, y.grad_fn, y.is_leaf)
print(x.detach().requires_grad)
print(x.eq(x.detach()).all())
torch.set_grad_enabled(False)
print((x * 2).requires_grad)
torch.set_grad_enabled(True)
print((x * 2).requires_grad)
