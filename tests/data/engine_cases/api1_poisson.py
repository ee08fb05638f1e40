import torch
gen = torch.manual_seed(0)
rates = torch.tensor([0.5, 3.0, 12.0, 40.0, 0.0], requires_grad=True)
counts = torch.poisson(rates)
counts
counts.sum().backward()
rates.grad
gen = torch.manual_seed(1)
torch.poisson(torch.full((3, 4), 7.5, dtype=torch.float64))
g = torch.Generator().manual_seed(5)
torch.poisson(torch.linspace(0, 60, 40), generator=g)
torch.rand(2)
try:
    torch.poisson(torch.tensor([1, 2]))
except NotImplementedError as e:
    print(e)
torch.poisson(torch.tensor([-1.]))
