import torch
x = torch.arange(6.).reshape(2, 3)
m = torch.tensor([[1, 0, 1], [0, 0, 1]], dtype=torch.uint8)
x[m]
x[m] = torch.tensor([-1., -2., -3.])
x
x[torch.tensor([1, 0], dtype=torch.uint8)]
x[torch.tensor(1, dtype=torch.uint8)]
x[m] = -1.
