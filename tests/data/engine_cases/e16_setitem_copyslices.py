import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.zeros(3)
y[0] = x[1] * 2
y[1:] = x[:2] ** 2
print(y)
y.sum().backward()
print(x.grad)
print(y.grad_fn.next_functions)
