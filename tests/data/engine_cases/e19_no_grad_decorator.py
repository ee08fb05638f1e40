import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
@torch.no_grad()
def f(t):
    return t * 2
print(f(x).requires_grad)
with torch.set_grad_enabled(False):
    print((x * 2).requires_grad)
print(torch.is_grad_enabled())
with torch.no_grad():
    with torch.enable_grad():
        print((x * 2).requires_grad)
