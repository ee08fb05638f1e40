import torch
x = torch.ones(2, requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
print(y.grad)
print(x.grad)
print(y.is_leaf, z.is_leaf)
