# shape changes in place: unsqueeze_, squeeze_, t_, transpose_ / swapdims_ / swapaxes_
import torch
torch.manual_seed(8)
img = torch.rand(3, 4, 4)
same = img.unsqueeze_(0)
img.shape, same is img
img.squeeze_()
img.shape
col = torch.arange(6.).reshape(2, 1, 3)
col.squeeze_(1)
col.squeeze_((0,))
col.t_()
col
col.is_contiguous()
cube = torch.arange(24).reshape(2, 3, 4)
cube.transpose_(0, 2).shape
cube.swapdims_(1, 2).shape
cube.swapaxes_(-1, 0)
w = torch.rand(2, 3, requires_grad=True)
h = w * 2
h.unsqueeze_(0)
h.grad_fn
h.squeeze_()
h.grad_fn
h.t_()
h.grad_fn
h.transpose_(0, 1)
h.grad_fn
z = torch.rand(2, 1, requires_grad=True) * 1
z.squeeze_(1).grad_fn
(h * torch.arange(6.).view(2, 3)).sum().backward()
w.grad
w.unsqueeze_(0)
