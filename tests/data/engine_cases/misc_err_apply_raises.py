import torch
x = torch.tensor([1., 0., 2.])
x.apply_(lambda v: 1 / v)
