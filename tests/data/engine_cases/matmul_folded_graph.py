import torch
x = torch.randn(2,3,4, requires_grad=True); w = torch.randn(4,5, requires_grad=True)
y = x @ w
print(y.grad_fn, y.grad_fn.next_functions, y.grad_fn.next_functions[0][0].next_functions)
print(y.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)
x2 = torch.randn(2,3,4); y2 = x2 @ w
print(y2.grad_fn, y2.grad_fn.next_functions, y2.grad_fn.next_functions[0][0].next_functions)
x3 = torch.randn(2,3,4, requires_grad=True); y3 = x3 @ torch.randn(4,5)
print(y3.grad_fn, y3.grad_fn.next_functions)
y.sum().backward()
print(x.grad.shape, w.grad.shape)
