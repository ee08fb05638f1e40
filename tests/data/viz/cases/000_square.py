# from 000: the Variable-free form; root: y; vector: v
import torch
x = torch.tensor([1.,2.,3.,4.],requires_grad=True)
y = x**2
dy = 2*x
v = torch.ones(y.size())
