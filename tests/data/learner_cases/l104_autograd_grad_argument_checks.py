# torch.autograd.grad / backward argument checks in PyTorch's order: materialize_grads with
# allow_unused=False, empty inputs, gradient counts, outputs before inputs, non-tensor inputs.
import torch
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = torch.tensor(1.0)
torch.autograd.grad(a * 3, [a, b], allow_unused=True)
torch.autograd.grad(a * 3, [a, b], materialize_grads=True)
try:
    torch.autograd.grad(a * 3, [a, b], allow_unused=False, materialize_grads=True)
except ValueError as e:
    print(e)
checks = [
    lambda: torch.autograd.grad(c * 2, c),
    lambda: torch.autograd.grad(a * 2, c),
    lambda: torch.autograd.grad(c * 2, a),
    lambda: torch.autograd.grad(torch.ones(2) * c, c),
    lambda: torch.autograd.grad(torch.ones(2) * a, a),
    lambda: torch.autograd.grad((a * 2).sum(), [3]),
    lambda: torch.autograd.grad((a * 2).sum(), [c, 3]),
    lambda: torch.autograd.grad(a * 2, []),
    lambda: torch.autograd.grad(torch.ones(2) * a, [], None),
    lambda: torch.autograd.grad([a * 2, a * 3], a, [torch.tensor(1.0)]),
    lambda: torch.autograd.grad(a * 2, a, 3.0),
    lambda: torch.autograd.grad(a * 2, a, [3.0]),
    lambda: torch.autograd.backward([a * 2, a * 3], [torch.tensor(1.0)]),
    lambda: torch.autograd.backward([a * 2], [torch.tensor(1.0), torch.tensor(5.0)]),
    lambda: (torch.ones(2) * a).backward([1.0, 1.0]),
    lambda: (torch.ones(2) * a).backward([torch.ones(2), torch.ones(2)]),
    lambda: (a * 2).backward(2.0),
]
for i, check in enumerate(checks):
    a.grad = None
    try:
        print(i, check(), a.grad)
    except (RuntimeError, TypeError, ValueError) as e:
        print(i, e)
