import torch
_ = torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
src = torch.arange(12.0).view(3, 4).requires_grad_()
mask = x.detach() > 0
ms = x.masked_scatter(mask, src)
print(ms, ms.grad_fn)
(ms * torch.linspace(0, 1, 12).view(3, 4)).sum().backward()
print(x.grad, src.grad)
x.grad = None
v = torch.tensor([9.0, 8.0], requires_grad=True)
p = x.put(torch.tensor([1, 5]), v)
q = torch.put(x, torch.tensor([1, 1, -1]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(p, q)
(p * p).sum().backward()
print(x.grad, v.grad)
x.grad = None
w = torch.tensor([1.5, -2.5], requires_grad=True)
ip = x.index_put((torch.tensor([0, 2]), torch.tensor([1, 3])), w)
ia = x.index_put((torch.tensor([0, 0]),), torch.tensor(1.0), accumulate=True)
print(ip, ia, ip.grad_fn)
(ip * 3).sum().backward()
print(x.grad, w.grad)
y = torch.zeros(2, 3)
y.index_put_((torch.tensor([1]), torch.tensor([2])), torch.tensor(5.0))
y.put_(torch.tensor([0]), torch.tensor([7.0]))
y.masked_scatter_(torch.tensor([[False, True, False], [False, False, False]]), torch.tensor([4.0]))
print(y)
try:
    x.put(torch.tensor([20]), torch.tensor([1.0]))
except IndexError as err:
    print(err)
