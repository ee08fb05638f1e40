import torch
vals = [1.0, 2.0, 3.0]
t = torch.tensor(vals)
print(t)
rows = [torch.tensor([1., 2.]), torch.tensor([3., 4.])]
print(torch.stack(rows))
print(torch.tensor([r.tolist() for r in rows]))
nested = [[1, 2, 3], [4, 5, 6]]
print(torch.tensor(nested).T)
print(torch.tensor([[1.5], [2]]))
print(torch.tensor([True, 1, 2.5]))
print(torch.tensor(range(5)))
print(torch.tensor([]).shape)
print(torch.tensor([[]]).shape)
print(torch.as_tensor(vals, dtype=torch.float64))
acc = []
for i in range(3):
    acc.append(torch.tensor(i * 1.5))
print(torch.stack(acc))
print(torch.tensor(acc))
print(torch.tensor(rows))
