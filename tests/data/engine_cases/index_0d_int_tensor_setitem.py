import torch
x = torch.arange(6.).reshape(2, 3)
x[torch.tensor(-1)]
x[torch.tensor(1, dtype=torch.int32)]
x[:, torch.tensor(2)]
x[..., torch.tensor(0)]
x[torch.tensor(1)] += 10
x
w = torch.ones(3, requires_grad=True)
v = w * 2
v[torch.tensor(0)] = 5.
v
v.sum().backward()
w.grad
x[torch.tensor(5)]
