import torch
x = torch.arange(12.).reshape(3, 4).requires_grad_()
i = torch.tensor(1)
y = x[i]
y
x[i, 2]
x[0, i]
x[torch.tensor(2), torch.tensor(3)]
z = x.detach().clone()
z[i] = 0.
z
z[i, [0, 1]]
x[[i, 0]]
x[torch.tensor(True)]
x[i].sum().backward()
x.grad
