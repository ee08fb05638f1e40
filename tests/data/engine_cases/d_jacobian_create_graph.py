import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
J = torch.autograd.functional.jacobian(lambda t: t ** 3, x, create_graph=True)
J
J.requires_grad
J.sum().backward()
x.grad
J2 = torch.autograd.functional.jacobian(lambda t: t ** 3, x)
J2
J2.requires_grad
H = torch.autograd.functional.hessian(lambda t: (t ** 3).sum(), x, create_graph=True)
H
