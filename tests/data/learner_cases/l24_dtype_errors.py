import torch
ints = torch.tensor([1, 2, 3])
floats = torch.tensor([0.5, 1.5, 2.5])
print(ints + floats)
print((ints * floats).dtype)
print(ints / 2, ints // 2)
print(ints.float().mean())
print(torch.tensor([1, 2]) == torch.tensor([1.0, 2.5]))
lin = torch.nn.Linear(3, 1)
try:
    lin(ints)
except RuntimeError as e:
    print("linear:", e)
m = torch.ones(2, 2, dtype=torch.float64)
try:
    m @ torch.ones(2, 2)
except RuntimeError as e:
    print("matmul:", e)
ints.mean()
