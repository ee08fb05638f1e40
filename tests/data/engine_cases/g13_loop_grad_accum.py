import torch
x = torch.tensor(1.0, requires_grad=True)
for k in range(1, 4):
    y = x ** k
    y.backward()
    print(k, x.grad)
x.grad = None
print(x.grad)
