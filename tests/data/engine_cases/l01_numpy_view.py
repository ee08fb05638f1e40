t = torch.ones(4)
arr = t.numpy()
print(f"arr: {arr}")
t.mul_(3)
print(arr)
arr
arr.shape, arr.dtype, arr.ndim, arr.size
print(arr.dtype)
grid = torch.arange(6).reshape(2, 3).numpy()
grid
print(grid)
grid[1], len(grid), grid.tolist()
back = torch.from_numpy(grid)
back
torch.tensor(grid) * 2
for row in grid:
    print(row)
torch.tensor([0.5, 2.75], dtype=torch.float64).numpy()
w = torch.zeros(2, requires_grad=True)
w.detach().numpy()
w.numpy()
