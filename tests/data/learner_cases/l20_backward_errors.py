import torch
torch.manual_seed(20)
x = torch.randn(3, requires_grad=True)
y = x * 2
try:
    y.backward()
except RuntimeError as err:
    print("caught:", err)
y.backward(torch.ones(3))
print(x.grad)
loss = (x ** 2).sum()
loss.backward(retain_graph=True)
loss.backward()
print(x.grad)
loss.backward()
