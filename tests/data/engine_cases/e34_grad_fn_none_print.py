import torch
x = torch.ones(2, requires_grad=True)
print(x.grad_fn, x.grad, x.is_leaf)
y = x + 1
print(y.grad_fn.next_functions[0][0].variable is x)
print(type(x))
print(x.requires_grad_(False), x.requires_grad)
