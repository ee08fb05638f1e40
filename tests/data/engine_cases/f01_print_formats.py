import torch
print(torch.tensor([1.0, 2.5, -3.25]))
print(torch.tensor([0.001, 0.01]))
print(torch.tensor([123456.0, 1.0]))
print(torch.tensor([1e-5, 1.0, 1e5]))
print(torch.tensor([[1, -20, 300], [4, 5, -6000]]))
print(torch.tensor([float('nan'), float('inf'), -float('inf'), 1.0]))
print(torch.tensor([-0.0, 0.0]))
print(torch.tensor([[0.5]], dtype=torch.float64, requires_grad=True))
print(torch.arange(12).reshape(2, 2, 3))
print(torch.ones(1001))
print(torch.arange(30.) / 7)
print(torch.tensor(1e-10), torch.tensor(123456789.0))
x = torch.tensor([2.0], requires_grad=True)
print(x * 1e6, (x * 1e-6).sum())
torch.tensor([1.5, 2.5]).dtype
torch.zeros(3, dtype=torch.int32)
torch.zeros(0, 3)
torch.tensor([[1.0, 2.0]]).T
