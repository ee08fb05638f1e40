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
# the value of an assignment is laid out as PyTorch's x[idx]; its gradient too
base = torch.zeros(2, 3, 4, requires_grad=True)
w2 = base * 1
v2 = torch.arange(6.).view(3, 2).requires_grad_()
w2[1, :, [3, 0]] = v2 * 2
w2.grad_fn
(w2 * torch.arange(24.).view(2, 3, 4)).sum().backward()
v2.grad
base.grad[1]
# an integer, None or a partial slice is a view first: CopySlices, not IndexPutBackward0
w3 = torch.zeros(2, 3, 4, requires_grad=True) * 1
w3[[1, 0]] = 5.0
w3.grad_fn
w3 = torch.zeros(2, 3, 4, requires_grad=True) * 1
w3[0:1, [1, 2]] = 5.0
w3.grad_fn
w3 = torch.zeros(2, 3, 4, requires_grad=True) * 1
w3[[0, 1], :, 1] = 5.0
w3.grad_fn
w3 = torch.zeros(2, 3, 4, requires_grad=True) * 1
w3[None, [1, 0]] = 1.0
w3.grad_fn
w3 = torch.zeros(2, 3, 4, requires_grad=True) * 1
w3[:, :, [0, 2]] = 1.0
w3.grad_fn
b[0, :, [1, 0]] = torch.ones(2, 2, dtype=torch.long)
