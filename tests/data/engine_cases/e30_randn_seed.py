import torch
torch.manual_seed(0)
print(torch.randn(3))
print(torch.rand(2, 2))
torch.manual_seed(42)
x = torch.randn(3, requires_grad=True)
print(x)
print(torch.randint(0, 10, (5,)))
