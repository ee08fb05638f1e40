import torch
# var/std gradients to the last digit (PyTorch's var_backward: (2 / dof) * grad * (x - mean))
data = torch.tensor([[0.31, -1.7, 2.25, 0.8], [1.05, 0.44, -0.93, 3.1], [-2.2, 0.67, 1.9, -0.15]], requires_grad=True)
weights = torch.tensor([0.7, -1.3, 2.1, 0.45])
(data.var(0) * weights).sum().backward()
data.grad.tolist()
data.grad = None
(data.std(1, correction=0) * torch.tensor([1.5, -0.5, 2.5])).sum().backward()
data.grad.tolist()
data.grad = None
s, m = torch.std_mean(data)
(s * 3 + m).backward()
data.grad.tolist()
g, = torch.autograd.grad(data.var(), data, create_graph=True)
g.grad_fn.name(), [None if f is None else f.name() for f, _ in g.grad_fn.next_functions]
