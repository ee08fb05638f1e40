import torch
# a negative *tensor* exponent of an integer tensor is no error: 1 stays 1, -1 alternates, the rest give 0
b = torch.tensor([2, 1, -1, -1, 0, 3, -2])
e = torch.tensor([-1, -3, -3, -2, -1, -2, -1])
print(b ** e)
print(torch.pow(b, e))
print(torch.tensor([2], dtype=torch.int8) ** torch.tensor([-1], dtype=torch.int8))
print(torch.tensor([2, 3]) ** torch.tensor(-1))
print(torch.pow(2, torch.tensor([-1, 3])))
print(1 ** torch.tensor([-1, 2]), (-1) ** torch.tensor([-1, -2]))
x = torch.tensor([4, 5])
x **= torch.tensor([-1, 1])
print(x)
print(torch.tensor([2, 4]) ** torch.tensor([-1., 0.5]))
# a Python scalar exponent still refuses
torch.tensor([2, 4]) ** -1
