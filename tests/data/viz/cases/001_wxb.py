# from 001 (graph and Jacobian post): z = w x + b, the graph 001 draws in Mermaid; root: z
import torch
torch.manual_seed(0)
x=torch.Tensor([2])
w=torch.randn(1,requires_grad=True)
b=torch.randn(1,requires_grad=True)

y=torch.matmul(w,x)
z=torch.add(y,b)
