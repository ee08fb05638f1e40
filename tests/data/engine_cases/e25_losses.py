import torch
import torch.nn.functional as F
p = torch.tensor([[0.2, 1.5, -0.3], [1.0, -2.0, 0.5]], requires_grad=True)
t = torch.tensor([1, 0])
l = F.cross_entropy(p, t)
print(l)
l.backward()
print(p.grad)
q = torch.tensor([0.2, 0.7, 0.9], requires_grad=True)
y = torch.tensor([0.0, 1.0, 1.0])
print(F.mse_loss(q, y), F.binary_cross_entropy(q, y), F.l1_loss(q, y))
F.mse_loss(q, y).backward()
print(q.grad)
print(F.relu(torch.tensor([-1.0, 2.0])), F.softmax(torch.tensor([1.0, 2.0]), dim=0))
