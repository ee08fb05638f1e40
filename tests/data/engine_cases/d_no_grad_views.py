import torch
x = torch.eye(3, requires_grad=True)
with torch.no_grad():
    u = x[0]
    w = x.view(9)
    t = x.t()
    m = x[[0, 1]]
    q = x.unsqueeze(0)
    y = x * 2
    d = x.detach()
u
u.requires_grad, u.grad_fn, u.is_leaf
w.requires_grad, t.requires_grad, q.requires_grad
m.requires_grad, y.requires_grad, d.requires_grad
(u * 2).requires_grad
