import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([0.5, 0.5], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
z = (w * x).sum() + b
print(z.grad_fn)
print(z.grad_fn.next_functions)
print(z.grad_fn.next_functions[0][0].next_functions)
print(z.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)
print(x.grad_fn, x.is_leaf, z.is_leaf)
z.backward()
print(x.grad, w.grad, b.grad)
