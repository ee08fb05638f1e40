import torch
# torch.tensor reads ranges as sequences and names what it cannot read
print(torch.tensor(range(4)))
print(torch.tensor([range(3), range(1, 4)]).sum(0))
samples = [
    (k * k for k in range(3)),
    {"w": 1.5},
    {2, 3},
    [0.5, None],
    [[1.0, 2.0], [print, 3.0]],
    "weights",
    ["w", "b"],
    [[1], "ab"],
]
for data in samples:
    try:
        torch.tensor(data)
    except (TypeError, ValueError, RuntimeError) as err:
        print(err)
