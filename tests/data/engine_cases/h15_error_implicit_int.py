import torch
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
print(y.grad_fn)
y.backward(2.0)
