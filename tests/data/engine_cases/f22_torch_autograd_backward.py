import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 2
z = x * 3
torch.autograd.backward([y.sum(), z.sum()])
print(x.grad)
torch.autograd.backward(y, torch.tensor([1.0, 0.5]))
print(x.grad)
