import torch
# PyTorch keeps an operand only for the gradients that need it: changing the other one in place is fine
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
data = torch.tensor([1.5, 0.25, -2.0])
hidden = w * 1.5
scaled = hidden * 3
shifted = hidden / 4
hidden.add_(1)
(scaled + shifted).sum().backward()
w.grad
w.grad = None
h2 = w.sigmoid() * 2
out = h2 @ data + torch.mm(h2.view(1, 3), data.view(3, 1)).sum() + h2.dot(data)
h2.mul_(0)
out.backward()
w.grad
w.grad = None
lin = torch.nn.functional.linear(w.exp().view(1, 3), torch.ones(2, 3), torch.zeros(2))
p = w * 2
q = p.addcmul(data, data, value=0.5)
p.zero_()
(lin.sum() + q.sum()).backward()
w.grad
# the saved one changed: PyTorch names the node that made it when it was saved
s = w.sigmoid()
t = s * 3
s.zero_()
t.sum().backward()
