import torch
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = x.index_select(1, torch.tensor([2, 0]))
y
y.sum().backward()
x.grad
p = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
l = torch.nn.functional.cross_entropy(x, p)
l
l.backward()
x.grad
torch.nn.functional.cross_entropy(x, p, reduction='sum')
torch.nn.functional.cross_entropy(x, p, reduction='none')
