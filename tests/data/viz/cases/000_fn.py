# from 000 (Variable blog post): y = x**2 * exp(x) through a def; root: y; vector: v
import torch
from torch.autograd import Variable

def fn(x):
    y = x**2*torch.exp(x)
    return y

torch.manual_seed(0)
x = Variable(torch.randn(3,4),requires_grad=True)
y = fn(x)
v = torch.ones(y.size())
