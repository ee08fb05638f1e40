import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.add_(1)
print(y)
y.mul_(3)
print(y.grad_fn)
y.sum().backward()
print(x.grad)
