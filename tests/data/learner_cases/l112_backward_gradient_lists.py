# torch.autograd.backward with several roots and gradient lists; gradient shapes and dtypes.
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
torch.autograd.backward([a * 2, a ** 2], [torch.ones(2), torch.tensor([0.5, 0.5])])
print(a.grad)
for roots, grads in [([a * 2, a * 3], [torch.ones(2)]), (a * 2, torch.ones(3)), ([a.sum(), a * 2], None),
                     ([a * 2, a.sum()], [torch.ones(2)]), ([a * 2, a.sum()], [torch.ones(2), None])]:
    try:
        torch.autograd.backward(roots, grads)
        print(a.grad)
    except RuntimeError as e:
        print(e)
for g in [torch.ones(2, 1), torch.ones(1), torch.ones(2, dtype=torch.float64), [1.0, 1.0], "x"]:
    try:
        (a * 2).backward(g)
        print(a.grad)
    except (RuntimeError, TypeError) as e:
        print(e)
try:
    a.sum().backward(torch.ones(1))
except RuntimeError as e:
    print(e)
a.sum().backward([None])
a.grad
