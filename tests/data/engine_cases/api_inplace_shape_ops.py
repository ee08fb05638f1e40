import torch
w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
h = w * 2
h.unsqueeze_(0)
print(h.shape, h.grad_fn)
h.squeeze_()
print(h.shape, h.grad_fn, h.grad_fn.next_functions[0][0])
h.t_()
print(h)
h.transpose_(0, 1)
h.swapaxes_(1, 0)
h.swapdims_(0, -1)
print(h.shape, h.grad_fn)
(h * torch.arange(6.0).view(2, 3)).sum().backward()
print(w.grad)
g = (w * 1).unsqueeze(1)
g.squeeze_(1)
print(g.grad_fn)
k = (w * 1).view(1, 2, 1, 3)
k.squeeze_((0, 2))
print(k.shape, k.grad_fn)
# a tensor saved for backward, then reshaped in place
s = w * 3
out = (s * s).sum()
s.unsqueeze_(0)
try:
    out.backward()
except RuntimeError as err:
    print(err)
for step in [lambda: w.unsqueeze_(0), lambda: w.t_(), lambda: w.squeeze_(), lambda: w.resize_(6),
             lambda: w.resize_as_(torch.ones(3, 2)), lambda: torch.ones(2, 2, 2).t_(),
             lambda: torch.ones(2, 2).transpose_(0, 2), lambda: torch.ones(3).resize_as_([1, 2])]:
    try:
        step()
    except (RuntimeError, IndexError, TypeError) as err:
        print(err)
with torch.no_grad():
    w.unsqueeze_(0)
print(w.shape, w.requires_grad, w.is_leaf)
data = torch.arange(6.0)
view = data[:4]
view.resize_(2, 2)
print(view, data)
data.resize_(3, 2)
print(data)
data.resize_as_(torch.zeros(2))
print(data)
m = torch.arange(6.0).view(2, 3).t()
m.resize_(6)
print(m)
x = torch.zeros(2, 3)
x.clip_(-1, 1).subtract_(1).multiply_(2).divide_(4).negative_()
print(x)
