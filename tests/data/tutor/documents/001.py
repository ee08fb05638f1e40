import torch
x=torch.Tensor([2])
w=torch.randn(1,requires_grad=True)
b=torch.randn(1,requires_grad=True)

y=torch.matmul(w,x)
z=torch.add(y,b)

z.backward()
print(w.grad)
print(b.grad)
import torch

x=torch.tensor([[2,3]],dtype=torch.float,requires_grad=True)
j=torch.zeros(2,2)
y=torch.zeros(1,2)
y[0,0]=x[0][0]**2+3*x[0][1]
y[0,1]=x[0][1]**2+2*x[0][0]

# 计算y_1梯度
y.backward(torch.Tensor([[1,0]]),retain_graph=True) # 不释放图，咱等会还要用
j[0]=x.grad
x.grad=torch.zeros_like(x.grad)

y.backward(torch.Tensor([[0,1]]))
j[1]=x.grad

print(j)
import torch

x=torch.ones(2,requires_grad=True)
y=x**2+3
c=y.detach_()
z=y*x
z.sum().backward()
print(x.grad==c)
print(x.grad)
import torch

x=torch.ones(2,requires_grad=True)
y=x**2+3
# c=y.detach_()
z=y*x
z.sum().backward()
print(x.grad)
