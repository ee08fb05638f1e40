import torch
x = torch.arange(6.0).reshape(2, 3)
print(x.split([1, 2], dim=1))
print(torch.split(x, [1, 1]), x.split(2, dim=1)[1].shape)
for sizes in ([1, 1], [2, 2], [-1, 4]):
    try:
        x.split(sizes, dim=1)
    except RuntimeError as e:
        print(e)
a = torch.tensor([0.1 + 0.2])
print(torch.isclose(a, torch.tensor([0.3])), torch.allclose(a, torch.tensor([0.3, 0.3])))
print(torch.allclose(torch.tensor([1, 2]), torch.tensor([1, 2])))
for other in (torch.tensor([1]), torch.tensor([1.0], dtype=torch.float64)):
    try:
        torch.isclose(a, other)
    except RuntimeError as e:
        print(e)
torch.allclose(torch.tensor([1.0]), torch.tensor([1]))
