import torch
grid = torch.arange(12.0).view(3, 4)
w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
print(grid.t().ravel(), torch.ravel(grid)[:5], (w * 1).t().ravel().grad_fn)
print([p.shape for p in torch.hsplit(grid, 2)], [p.shape for p in grid.vsplit([1])], [p.shape for p in grid.hsplit([1, 3])])
print([p.tolist() for p in torch.hsplit(torch.arange(6), 3)], [p.shape for p in grid.split_with_sizes([1, 2])])
for bad in [lambda: torch.hsplit(grid, 3), lambda: torch.vsplit(torch.ones(3), 1), lambda: grid.dsplit(2),
            lambda: torch.hsplit(torch.tensor(1.0), 1)]:
    try:
        bad()
    except RuntimeError as err:
        print(err)
print(torch.diagflat(torch.tensor([1.0, 2.0])), torch.tensor([[1, 2], [3, 4]]).diagflat(1))
print(grid.sum_to_size(1, 4), grid.sum_to_size(3, 1), grid.sum_to_size(4).shape, (w * 2).sum_to_size(1, 3).grad_fn)
print(grid.mH.shape, grid.H.shape, grid.adjoint().shape, torch.adjoint(grid).shape, (w * 1).mH.grad_fn)
try:
    torch.ones(3).mH
except RuntimeError as err:
    print(err)
blocks = torch.block_diag(w, torch.tensor([[7.0]]), torch.tensor([3.0, 4.0]))
print(blocks)
(blocks * torch.arange(24.0).view(4, 6)).sum().backward()
print(w.grad, torch.block_diag(torch.tensor([1, 2]), torch.tensor([[3]])))
print(torch.combinations(torch.tensor([4, 5, 6])), torch.combinations(torch.tensor([1.0, 2.0]), r=2, with_replacement=True))
c = torch.combinations(torch.tensor([0.5, 1.5, 2.5], requires_grad=True), 3)
print(c, c.grad_fn)
a, b = torch.broadcast_tensors(torch.ones(3), torch.tensor([[1.0], [2.0]]))
print(a.shape, b)
print(torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4, 9])), torch.isin(torch.tensor([1.5, 2.0]), torch.tensor([2.0]), invert=True))
print(torch.unravel_index(torch.tensor([5, 7, 11]), (3, 4)), torch.unravel_index(torch.tensor(9), (2, 5)))
print(torch.vander(torch.tensor([1, 2, 3])), torch.vander(torch.tensor([0.5, 2.0]), N=4, increasing=True))
obs = torch.tensor([[1.0, 2.5, 3.0, 0.5], [2.0, 1.0, 4.5, 3.5], [0.0, 1.0, 0.5, 2.0]])
print(torch.cov(obs), obs.cov(correction=0), torch.cov(torch.tensor([1.0, 3.0, 4.0])))
print(torch.corrcoef(obs), obs[0].corrcoef())
print(torch.trapezoid(obs), torch.trapezoid(obs, dx=0.5, dim=0), torch.trapz(obs[0], torch.tensor([0.0, 1.0, 3.0, 3.5])))
print(torch.cumulative_trapezoid(obs), torch.cumulative_trapezoid(obs[1], torch.tensor([0.0, 0.5, 2.0, 2.5])))
print(torch.tensor([1, 2, 3]).type_as(obs), obs.type_as(torch.tensor([1])), obs[0].byte(), (-obs[0]).char(), obs[1].short())
print(torch.tensor([0.0]).is_nonzero(), torch.is_nonzero(torch.tensor([[2]])), obs.is_same_size(grid), obs.is_cpu, obs.is_neg())
try:
    torch.ones(2).is_nonzero()
except RuntimeError as err:
    print(err)
print(torch.ones(2).outer(torch.tensor([1.0, 2.0, 3.0])), torch.tensor([1.0, 2.0]).ger(torch.ones(2)))
print(torch.get_num_threads() > 0, torch.set_num_threads(1), torch.get_num_threads())
print(torch.use_deterministic_algorithms(True), torch.are_deterministic_algorithms_enabled())
print(torch.set_float32_matmul_precision("high"), torch.get_float32_matmul_precision())
print(torch.typename(obs), torch.typename(3), torch.contiguous_format, torch.channels_last, torch.scalar_tensor(3))
