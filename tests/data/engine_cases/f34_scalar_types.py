import torch
x = torch.tensor(2.0, requires_grad=True)
y = 3 * x ** 2 + 2 * x + 1
y
y.backward()
x.grad
x.grad.item()
z = x / 3
z
torch.tensor(1) / 3
torch.tensor(7) // 2
torch.tensor(-7) % 3
