# from 001: the same without detach_ (x.grad = 6); root: s (the document's z.sum())
import torch

x=torch.ones(2,requires_grad=True)
y=x**2+3
z=y*x
s=z.sum()
