import torch
from torch.autograd import Variable
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x)
y = x + 2
print(y)
z = y * y * 3
out = z.mean()
out.backward()
print(x.grad)
print(x.data)
print(type(x.data), x.data.requires_grad)
