import torch
x = torch.tensor([[1.0, 5.0, 2.0], [7.0, 3.0, 3.0]], requires_grad=True)
m = x.max(1)
m
print(m.values, m.indices)
v, i = x.min(0)
print(v, i)
m.values.sum().backward()
print(x.grad)
x.argmax()
x.argmax(1)
