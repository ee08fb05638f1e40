import torch
grid = torch.arange(12).reshape(3, 4)
grid[[True, False, True]]
grid[:, [False, True, True, False]]
copy = grid.clone()
copy[[False, True, False]] = -1
copy
keep = torch.tensor([[True, False, True, True], [False, False, True, True], [True, True, True, False]])
grid[keep]
try:
    grid[torch.ones(3, 3, dtype=torch.bool)]
except IndexError as e:
    print(e)
try:
    grid[:, [True, False]]
except IndexError as e:
    print(e)
grid[[True, False]]
