import torch
x1 = torch.tensor([[0.5, 1.0, -0.25], [1.5, -0.5, 0.75]], requires_grad=True)
x2 = torch.tensor([[0.5, 1.0, -0.25], [2.0, 0.0, 1.0], [-1.0, 0.5, 0.25]], requires_grad=True)
for p in (2.0, 1.0, 3.0):
    d = torch.cdist(x1, x2, p=p)
    print(d, d.grad_fn.name())
    g1, g2 = torch.autograd.grad((d * torch.tensor([1.0, -2.0, 0.5])).sum(), [x1, x2])
    print(g1, g2)
g1, g2 = torch.autograd.grad(torch.cdist(x1, x2).sum(), [x1, x2], create_graph=True)
print(g1.grad_fn.name(), g2.grad_fn.name(), g1.requires_grad)
torch.autograd.grad(g1.sum(), [x1])
