# Gradients where a norm or atan2's denominator is zero: PyTorch's masked_fill gives +0
# (never -0 or nan); dist shares norm's backward.
import torch
v = torch.tensor([[3.0, -4.0], [0.0, -0.0]], requires_grad=True)
v.norm(dim=1).sum().backward()
v.grad
v.grad = None
torch.linalg.vector_norm(v, ord=3, dim=1).sum().backward()
v.grad
v.grad = None
torch.linalg.norm(v).backward()
v.grad
t = torch.tensor([0.0, -1.0], requires_grad=True)
(t * 0).norm().backward()
t.grad
t = torch.tensor([0.0, -0.0], requires_grad=True)
t.norm(p=3).backward()
t.grad
t = torch.tensor([[0.0, -0.0]], requires_grad=True)
torch.linalg.matrix_norm(t).backward()
t.grad
a = torch.tensor([1.0, -0.0], requires_grad=True)
b = torch.tensor([1.0, 0.0])
torch.dist(a, b).backward()
a.grad
a.grad = None
torch.dist(a, b, p=1).backward()
a.grad
a.grad = None
torch.dist(a, b, p=0).backward()
a.grad
for y0, x0, g in [(0.0, 0.0, 1.0), (-0.0, 0.0, 1.0), (0.0, -0.0, 1.0), (0.0, -0.0, -1.0), (1e-30, 0.0, 1.0),
                  (1e-20, 1e-20, 1.0), (float('inf'), 1.0, 1.0)]:
    p = torch.tensor(y0, requires_grad=True)
    q = torch.tensor(x0, requires_grad=True)
    torch.atan2(p, q).backward(torch.tensor(g))
    print(y0, x0, g, p.grad, q.grad)
