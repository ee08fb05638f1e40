import torch
import torch.nn.functional as F
x = torch.tensor([[0., 1., 2.], [1., 1., 0.], [3., -1., 2.], [0., 1., 2.]], requires_grad=True)
d = F.pdist(x)
d
d.sum().backward()
x.grad
F.pdist(x, p=1), torch.pdist(x, 3), F.pdist(x, float("inf")), F.pdist(x, 0)
F.pdist(torch.ones(3))
