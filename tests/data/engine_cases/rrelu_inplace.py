import torch
import torch.nn.functional as F

x = torch.tensor([-2.0, -0.5, 0.0, 1.5], requires_grad=True)
y = x * 1
z = F.rrelu_(y)
print(z, z is y, y.grad_fn.name())
z.sum().backward()
print(x.grad)
w = torch.tensor([-1.0, 2.0])
print(torch.rrelu_(w, 0.2, 0.4), w)
print(F.rrelu(torch.tensor([-3.0, 3.0]), inplace=True).grad_fn)
