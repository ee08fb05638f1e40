import torch

x = torch.tensor([[3., 1., 2., 7.], [0.5, 4., 4., -1.]], requires_grad=True)
print(torch.quantile(x, 0.3))
print(torch.quantile(x, 0.3, dim=1))
print(torch.quantile(x, torch.tensor([0.2, 0.9]), dim=1, keepdim=True))
for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
    print(mode, torch.quantile(x, 0.4, dim=0, interpolation=mode), x.quantile(torch.tensor([0.1, 0.5, 0.75]), interpolation=mode))
print(x.quantile(0.5, 1, True), x.nanquantile(0.5), torch.quantile(x, 0.5, dim=None, keepdim=True))
print(torch.quantile(x.double(), 0.3), torch.quantile(x, 1), torch.quantile(x, torch.tensor([]), dim=1))
nan = float("nan")
print(torch.nanquantile(torch.tensor([1., nan, 3.]), 0.5), torch.quantile(torch.tensor([1., nan, 3.]), 0.5))
print(torch.nanquantile(torch.tensor([[nan, nan], [1., 2.]]), torch.tensor([0.3, 0.6]), dim=1))
print(torch.quantile(torch.tensor(3.), 0.5), torch.quantile(torch.tensor(3.), 0.5, dim=0))
torch.manual_seed(0)
r = torch.randn(7, 5, 3, requires_grad=True)
qs = torch.tensor([0.1, 0.33, 0.5, 0.97])
for d in (None, 0, 1, -1):
    y = torch.quantile(r, qs, dim=d)
    print(d, y.shape, y.grad_fn.name(), y.tolist() == y.contiguous().tolist(), y.contiguous().view(-1)[::5].tolist(), torch.nanquantile(r, 0.71, dim=d).view(-1)[::4].tolist())
out = torch.quantile(r, qs, dim=1, keepdim=True)
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
(out * torch.arange(out.numel()).view(out.shape)).sum().backward()
print(r.grad)
x.grad = None
torch.quantile(x, 0.3, interpolation="midpoint").backward()
print(x.grad)
y = torch.quantile(x, 0.3)
print(y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
for bad in (lambda: torch.quantile(torch.tensor([1, 2]), 0.5), lambda: torch.quantile(x, 1.5),
            lambda: torch.quantile(x, -0.1), lambda: torch.quantile(x, torch.tensor([0.5, 1.2])),
            lambda: torch.quantile(x, torch.tensor([[0.5]])), lambda: torch.quantile(x, torch.tensor([0.5], dtype=torch.float64)),
            lambda: torch.quantile(torch.tensor([]), 0.5), lambda: torch.quantile(x, 0.5, interpolation="cubic"),
            lambda: torch.quantile(x, 0.5, dim=2), lambda: torch.nanquantile(x, 2.0),
            lambda: torch.quantile(torch.empty(2, 0), 0.5, dim=0), lambda: x.quantile(0.5, True),
            lambda: torch.quantile(x, "a"), lambda: x.nanquantile(0.5, 1, 1)):
    try:
        bad()
    except Exception as e:
        print(repr(e))
torch.quantile(x, [0.5])
