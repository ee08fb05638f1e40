import torch
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    first = w[0:1]          # a view of w, taken for logging
print(first, first.requires_grad, first.is_leaf, first.grad_fn)
for step in range(2):
    loss = (w ** 2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad.zero_()
print(w)
print(first)                # its grad_fn is now invalid
print(first.detach(), first.item(), first.tolist(), first.requires_grad)
with torch.no_grad():
    print(first * 10)
try:
    first.grad_fn
except RuntimeError as e:
    print("grad_fn:", str(e)[:60])
try:
    first.is_leaf
except RuntimeError as e:
    print("is_leaf:", str(e)[:60])
try:
    first.clone()
except RuntimeError as e:
    print("clone:", str(e)[:60])
b = w * 1
with torch.no_grad():
    v = b[1:]
    v.mul_(2)               # changed through the view itself
v
first * 2
