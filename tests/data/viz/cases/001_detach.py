# from 001: detach_() turns y into a leaf constant; root: s (the document's z.sum())
import torch

x=torch.ones(2,requires_grad=True)
y=x**2+3
c=y.detach_()
z=y*x
s=z.sum()
