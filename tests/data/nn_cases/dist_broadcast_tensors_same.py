# torch.broadcast_tensors returns a tensor already of the broadcast shape itself (no ExpandBackward0)
import torch
a = torch.ones(2, requires_grad=True)
b = torch.zeros(2)
r = torch.broadcast_tensors(a, b)
r[0] is a, r[1] is b
r[0]
torch.broadcast_tensors(a)[0] is a
torch.broadcast_tensors(a, torch.zeros(3, 2))[0]
x, y = torch.broadcast_tensors(torch.ones(2, 1), torch.ones(1, 3))
x.shape, y.shape
