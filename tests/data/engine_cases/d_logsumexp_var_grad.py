import torch
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
x.var(), x.std(0)
x.logsumexp(1)
x.logsumexp(1, keepdim=True)
y = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
s = y.logsumexp(-1)
s
s.backward()
y.grad
y.ceil().var()
