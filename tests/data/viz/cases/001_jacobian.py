# from 001: the Jacobian built by hand with index assignment (CopySlices); root: y; vector: v
import torch

x=torch.tensor([[2,3]],dtype=torch.float,requires_grad=True)
j=torch.zeros(2,2)
y=torch.zeros(1,2)
y[0,0]=x[0][0]**2+3*x[0][1]
y[0,1]=x[0][1]**2+2*x[0][0]
v=torch.Tensor([[1,0]])
