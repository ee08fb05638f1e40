import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = x ** 2 + 3 * x
y.backward(torch.ones_like(y))
print(x.grad)
y2 = (x * x).sum(dim=0)
y2.backward(torch.tensor([1.0, -1.0]))
print(x.grad)
