import torch
w = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
h = w * 3
with torch.no_grad():
    head = w[:2]
    row = h.view(1, 3)
print(head, head.requires_grad, head.grad_fn)
print(row.requires_grad, row.grad_fn)
for target in [head, row]:
    try:
        target.add_(1.0)
    except RuntimeError as err:
        print(err)
with torch.no_grad():
    row.add_(1.0)
print(h)
