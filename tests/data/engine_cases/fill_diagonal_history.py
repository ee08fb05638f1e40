import torch
scores = torch.tensor([[0.5, -1.25, 2.0], [1.5, 0.75, -0.5], [0.25, 3.0, 1.0]], requires_grad=True)
masked = scores * 3
masked.fill_diagonal_(-1.0)
masked.grad_fn.name()
(masked * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
scores.grad
tall = torch.zeros(5, 2)
tall.fill_diagonal_(4.0, wrap=True)
scores.fill_diagonal_(0.0)
