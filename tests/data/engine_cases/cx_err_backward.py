import torch
x = torch.tensor([1+2j, 3-4j], requires_grad=True)
y = (x * x).sum()
print(y)
y.backward()
