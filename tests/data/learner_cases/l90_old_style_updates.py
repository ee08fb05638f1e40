# An RNN cell trained the way older tutorials wrote the update: the scalar first
# (p.data.add_(-lr, p.grad.data)), the deprecated overloads PyTorch still accepts.
import torch
import torch.nn as nn
torch.manual_seed(3)
cell = nn.Linear(6, 4)
h = torch.zeros(1, 4)
xs = torch.randn(5, 1, 2)
for x in xs:
    h = torch.tanh(cell(torch.cat((x, h), 1)))
loss = (h ** 2).sum()
loss.backward()
lr = 0.05
for p in cell.parameters():
    p.data.add_(-lr, p.grad.data)
cell.bias
cell.weight.grad.sum()
w = cell.weight.data.clone()
w.sub_(0.5, cell.weight.grad)
w[0]
v = torch.zeros(4)
v.addcmul_(0.1, cell.bias.grad, cell.bias.grad)
v.addcdiv_(2, cell.bias.grad, v + 1)
v.tolist()
torch.add(v, 3, v)
v.sub(2, v)
torch.addcmul(v, 0.5, v, v)
v.add(3, 1)
v.add(v, 2)
