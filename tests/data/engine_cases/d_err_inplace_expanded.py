import torch
a3 = torch.tensor([[[0.1, 4.0, 4.007]], [[2., -1., 2.39009]]]) + 1.0
same = a3.expand(2, 1, 3)
same.mul_(2)
a3
b4 = a3.expand(2, 3, 3)
b4.exp_()
