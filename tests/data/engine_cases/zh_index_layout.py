# Where PyTorch puts the dims of index tensors when integers, `...` and None sit between them
import torch
a = torch.arange(120.).view(5, 4, 3, 2)
a[0, :, [1, 0]].shape
a[0, ..., [1, 0]].shape
a[[1, 0], :, 0].shape
a[[1, 0], ..., 0].shape
a[0, None, [1, 0]].shape
a[[[0, 1]], 1, ..., [1, 0]].shape
i = torch.tensor([[1, 0]])
j = torch.tensor([[0, 1]])
a[i, :, j, 0].shape
a[:, i, None, :2, ..., j].shape
b = torch.arange(24).view(2, 3, 4)
b[:, [1, 0], ..., [0, 1]]
b[0, :, [3, 1]]
# a list holding a list, None, `...` or a tensor indexes as a tuple
b[[[0, 1], [1, 2]]]
b[[0, None]].shape
b[[0, ...]].shape
b[[torch.tensor(1), 2]]
b[[1, 0]].shape
b[[[0, 1]]].shape
w = torch.zeros(2, 3, 4)
w[1, :, [3, 0]] = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
w[1]
w[[0, None]] = 7
w[0, 0]
x = torch.arange(24.).view(2, 3, 4).requires_grad_()
y = x[1, :, [2, 0]]
y.shape, y.grad_fn
(y * torch.arange(6.).view(3, 2)).sum().backward()
x.grad[1]
b[0, :, [1, 0]] = torch.ones(2, 2, dtype=torch.long)
