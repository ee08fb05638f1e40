import torch
x = torch.tensor([0.5, 1.0, -1.5], requires_grad=True)
y = x * 2
i = 0
while y.data.norm() < 100:
    y = y * 2
    i += 1
print(i, y)
y.backward(torch.tensor([1.0, 0.1, 0.01]))
print(x.grad)
print(y.data.norm())
