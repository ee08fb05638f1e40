import torch 
from torch.autograd import Variable 

def fn(x): 
    y = x**2*torch.exp(x)
    return y

def grad_fn(x): 
    dx = 2*x*torch.exp(x) + x**2*torch.exp(x)
    return dx

# 测试
x = Variable(torch.randn(3,4),requires_grad=True)
y = fn(x)

# torch.autograd自动求导时，执行
y.backward(torch.ones(y.size()))
x.grad == grad_fn(x)
import torch 
x = torch.tensor([1.,2.,3.,4.],requires_grad=True) # leaf node 叶子节点 is_leaf = True  
y = x**2 # 根节点 
dy = 2*x 
y.backward(torch.ones(y.size())) 
x.grad == dy 
