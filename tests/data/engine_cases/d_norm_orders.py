import torch
x = torch.tensor([[3.0, -4.0, 0.0], [1.0, 1.0, -2.0]], requires_grad=True)
x.norm(0), x.norm(1), x.norm(3), x.norm(float('inf')), x.norm(0.5)
x.norm(1, dim=1)
x.norm(float('inf'), dim=1, keepdim=True)
x.norm(p=1).backward()
x.grad
x.grad = None
x.norm(float('inf')).backward()
x.grad
x.grad = None
x.norm(3, dim=1).sum().backward()
x.grad
x.grad = None
x.norm(0.5).backward()
x.grad
x.grad = None
x.norm(-float('inf'), dim=1).sum().backward()
x.grad
x.grad = None
x.norm(0).backward()
x.grad
a6 = torch.tensor([[6.], [0.5], [3.0]], requires_grad=True)
a6.norm(0, keepdim=True)
