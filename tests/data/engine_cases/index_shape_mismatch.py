import torch
x = torch.arange(12.).reshape(3, 4)
for idx in [(torch.tensor([0, 1]), torch.tensor([0, 1, 2])), (torch.tensor([[0], [1]]), torch.tensor([0, 1, 2]), ), (torch.tensor([True, False, True]), torch.tensor([0, 1, 2])), (torch.tensor([0, 1]), torch.tensor([[0, 1, 2], [1, 2, 3]]))]:
    try:
        print(x[idx])
    except IndexError as e:
        print("IndexError:", e)
    try:
        x[idx] = 1.0
        print(x)
    except Exception as e:
        print("Err", e)
y = torch.zeros(2, 3, 4)
m = torch.tensor([[True, False, True], [False, False, True]])
try:
    y[m, torch.tensor([0, 1])]
except IndexError as e:
    print(e)
x[range(2), torch.tensor([0, 1, 2, 3])]
