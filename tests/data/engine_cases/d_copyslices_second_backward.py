import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x.clone()
y[0] = 5.0
y.sum().backward()
print(x.grad)
y.sum().backward()
