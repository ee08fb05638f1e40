import torch
x = torch.tensor(0.5, requires_grad=True)
y = x
for i in range(5):
    y = torch.sin(y) * 2 + y ** 2
print(y)
y.backward()
print(x.grad)
print(y.grad_fn.next_functions)
