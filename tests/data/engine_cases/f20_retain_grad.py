import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.retain_grad()
z = (y ** 2).sum()
z.backward()
print(y.grad, x.grad)
print(y.retains_grad, x.retains_grad)
