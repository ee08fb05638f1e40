# The three seed tutorials' programs as printed there: Variable, torch.Tensor([2]) with matmul,
# the Jacobian by hand with retain_graph, requires_grad_ and the y.data.norm() loop.
import torch
from torch.autograd import Variable
def fn(x):
    return x**2*torch.exp(x)
def grad_fn(x):
    return 2*x*torch.exp(x) + x**2*torch.exp(x)
torch.manual_seed(1)
x = Variable(torch.randn(3,4),requires_grad=True)
y = fn(x)
y.backward(torch.ones(y.size()))
x.grad == grad_fn(x)
torch.allclose(x.grad, grad_fn(x))
x=torch.Tensor([2])
w=torch.randn(1,requires_grad=True)
b=torch.randn(1,requires_grad=True)
y=torch.matmul(w,x)
z=torch.add(y,b)
z.backward()
print(w.grad, b.grad, y, z)
z.grad_fn.next_functions
x=torch.tensor([[2,3]],dtype=torch.float,requires_grad=True)
j=torch.zeros(2,2)
y=torch.zeros(1,2)
y[0,0]=x[0][0]**2+3*x[0][1]
y[0,1]=x[0][1]**2+2*x[0][0]
y.backward(torch.Tensor([[1,0]]),retain_graph=True)
j[0]=x.grad
x.grad=torch.zeros_like(x.grad)
y.backward(torch.Tensor([[0,1]]))
j[1]=x.grad
print(j, y.grad_fn)
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print(a.requires_grad)
a.requires_grad_(True)
b = (a * a).sum()
print(b.grad_fn)
x = torch.randn(3, requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
y.backward(torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float))
print(x.grad, x.eq(x.detach()).all())
