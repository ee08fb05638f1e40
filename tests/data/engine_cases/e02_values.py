import torch
x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]], requires_grad=True)
y = (x.exp() * x.sin() + x.tanh() / (x * x + 1)).sum()
print(y)
y.backward()
print(x.grad)
z = (x.sigmoid() * x.relu() - x.abs().sqrt()).mean()
x.grad = None
z.backward()
print(x.grad)
print(x.softmax(1))
print(x.log_softmax(0))
print(x.norm(), x.norm(dim=1))
