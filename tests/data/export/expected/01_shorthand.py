import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = torch.exp(x) * torch.sigmoid(x)
z = y.sum()
print(z)
z.backward()
print(x.grad)
w = torch.ones(2, 3) * 0.5
print(w.requires_grad_(True))
print(repr("a string is echoed with its quotes"))
print(x.grad.zero_())
(x ** 3).mean().backward()
print(x.grad)
print(x.grad.tolist())
