import torch
s = torch.tensor(1.5, requires_grad=True)
p = s.log_softmax(-1)
p
p.backward()
s.grad
s.softmax(0).mul(3).backward()
s.grad
u = s.transpose(0, -1)
u
(u * 2).backward()
s.grad
s.swapaxes(-1, 0).shape
s.transpose(0, 2)
