import torch
x = torch.tensor([[1., 2.]], requires_grad=True)
y = torch.zeros(1, 3)
y[0, 0] = x[0, 0] * x[0, 1]
y[0, 1] = x[0, 0] ** 3
y[0, 2] = torch.sin(x[0, 1])
J = torch.zeros(3, 2)
for i in range(3):
    v = torch.zeros(1, 3)
    v[0, i] = 1
    y.backward(v, retain_graph=True)
    J[i] = x.grad
    x.grad.data.zero_()
print(J)
print(y)
