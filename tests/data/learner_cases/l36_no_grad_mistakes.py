import torch
w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    y = w * 2
print(y.requires_grad, y.grad_fn)
with torch.no_grad():
    w.mul_(0.5)
print(w, w.is_leaf)
z = w.detach()
print(z.requires_grad)
print(torch.is_grad_enabled())
@torch.no_grad()
def predict(v):
    return v * w
print(predict(torch.ones(3)).requires_grad)
y.backward(torch.ones(3))
