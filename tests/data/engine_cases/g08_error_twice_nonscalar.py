import torch
x = torch.ones(3, requires_grad=True)
y = x ** 2
y.backward(torch.ones(3))
print(x.grad)
y.backward(torch.ones(3))
