import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x ** 2).sum().backward(create_graph=True)
x.grad
(x ** 2).sum().backward(create_graph=True)
x.grad
x.grad.grad_fn.name()
