import torch
m = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
s = torch.linalg.svdvals(m)
s
s.sum().backward()
m.grad
torch.linalg.matrix_norm(m, 2)
torch.linalg.matrix_norm(m, -2)
torch.linalg.svdvals(torch.ones(2, 3, 4)).shape
torch.linalg.matrix_norm(torch.arange(24.).reshape(2,3,4), 'nuc', dim=(0, 2))
torch.linalg.matrix_norm(torch.arange(24.).reshape(2,3,4), 2, dim=(2, 0), keepdim=True)
x = torch.arange(24.).reshape(2, 3, 4)
m = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
n = torch.norm(m, p='nuc')
n
torch.norm(x, p='nuc', dim=(1, 2))
m.norm(p='fro', dim=(0, 1))
torch.norm(x, dim=(0, 1))
torch.norm(x, p='fro', dim=2)
torch.linalg.matrix_norm(x, ord=1, dim=(0, 2))
torch.linalg.matrix_norm(x, ord=-float('inf'), dim=(2, 0), keepdim=True)
torch.linalg.norm(m, 'nuc')
torch.norm(x, dim=(0, 1, 2))
