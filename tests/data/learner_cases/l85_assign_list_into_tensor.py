import torch
# filling a table row by row: a tensor or a number goes in, a Python list does not
table = torch.zeros(3, 2)
table[0] = torch.tensor([1., 2.])
table[1] = 5
table[:, 1] = torch.arange(3)
print(table)
ids = torch.arange(10)
for v in [torch.zeros(2), torch.zeros(2, dtype=torch.float64), torch.tensor([True, False])]:
    try:
        ids[..., 0] = v
    except RuntimeError as e:
        print(e)
flags = torch.zeros(2, dtype=torch.bool)
for v in [None, "yes", (True,)]:
    try:
        flags[0] = v
    except TypeError as e:
        print(e)
print(ids, flags)
table[2] = [7.0, 8.0]
