import torch
x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
x.relu().sum().backward()
print(x.grad)
x.grad = None
x.clamp(min=0.0).sum().backward()
print(x.grad)
x.grad = None
x.abs().sum().backward()
print(x.grad)
x.grad = None
torch.max(x).backward()
print(x.grad)
