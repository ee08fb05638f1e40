import torch
print(torch.zeros(2, 3))
print(torch.arange(10).reshape(2, 5))
print(torch.linspace(0, 1, 7))
print(torch.eye(3, dtype=torch.float64))
print(torch.full((2, 2), 7))
print(torch.tensor([1e10, 1.0]))
print(torch.tensor([0.1, 0.25, 123.456]))
print(torch.tensor(3))
print(torch.tensor([]))
print(torch.ones(2, 2, 2))
print(torch.tensor([[1.5, -2.25], [1000.0, 0.001]]))
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.shape, x.size(), x.size(0), x.dim(), x.numel(), x.dtype)
print((x * 2).tolist(), (x.sum()).item())
torch.ones(2, 3).size()
torch.float32
torch.tensor([True, False]).dtype
