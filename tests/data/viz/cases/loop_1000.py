# not from the documents: a loop of 2000 ops, drawn collapsed; root: s
import torch
w = torch.tensor([1.0, 0.5, -0.5], requires_grad=True)
q = w * 1
for i in range(1000):
    q = q * w + 1
s = q.sum()
