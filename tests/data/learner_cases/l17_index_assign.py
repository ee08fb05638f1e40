import torch
t = torch.zeros(3, 4)
t[0] = 1
t[:, 1] = torch.tensor([5., 6., 7.])
t[2, 3] = -1
t[t == 0] = 0.5
print(t)
t[1:, :2] = torch.ones(2, 2) * 9
print(t)
idx = torch.tensor([0, 2])
t[idx] = 100
print(t)
m = torch.zeros(5)
m[[1, 3]] += 1
print(m)
t[0] = torch.ones(3)
