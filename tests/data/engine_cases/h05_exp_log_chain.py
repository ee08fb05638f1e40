import torch
x = torch.tensor([0.1, 0.5, 0.9], requires_grad=True)
y = torch.log(torch.exp(x) + 1)
y.backward(torch.ones(3))
print(y)
print(x.grad)
print(torch.sigmoid(x))
print(x.grad == torch.sigmoid(x))
