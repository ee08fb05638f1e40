import torch
print(torch.tensor([True, False]).sign())
x = torch.tensor(2.0, requires_grad=True)
x.max(0, keepdim=True).values.backward(); print(x.grad)
x.grad=None
x.min(0)[0].backward(); print(x.grad)
a = torch.tensor([[1.0, 1.0], [2.0, 3.0]], requires_grad=True)
a.std(1).sum().backward(); print(a.grad)
a.grad=None
a.std().backward(); print(a.grad)
a.grad=None
a.std(0, keepdim=True).sum().backward(); print(a.grad)
b = torch.tensor([[1.0, 1.0]], requires_grad=True)
