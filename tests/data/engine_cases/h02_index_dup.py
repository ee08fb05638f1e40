import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x[[0, 0, 2]]
print(y)
y.sum().backward()
print(x.grad)
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
r = m[:, 0] * m[1]
print(r)
r.sum().backward()
print(m.grad)
print(m[0, ::-1] if False else m[::2])
