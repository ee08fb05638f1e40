# from 004: the vector-Jacobian product of a doubling loop (indentation restored); root: y; vector: v
import torch
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
