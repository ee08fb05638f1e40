import torch
_ = torch.manual_seed(0)
torch.binomial(torch.tensor([10., 100., 5., 1000., 3.]), torch.tensor([0.5, 0.3, 0.9, 0.01, 0.0]))
torch.binomial(torch.tensor([10., 100.], dtype=torch.float64), torch.tensor([0.5, 0.97], dtype=torch.float64))
c = torch.randint(0, 500, (200,)).float()
p = torch.rand(200)
out = torch.binomial(c, p)
out[:12], out.sum(), bool((out <= c).all())
torch.binomial(torch.tensor([[10.], [200.]]), torch.tensor([0.2, 0.99, 0.5]))
g = torch.Generator().manual_seed(9)
torch.binomial(torch.full((6,), 1e6), torch.full((6,), 0.37), generator=g)
torch.binomial(torch.tensor([10.5, 20.25]), torch.tensor([0.5, 0.3]), generator=g)
torch.rand(2)
y = torch.binomial(torch.tensor([10., 100.], requires_grad=True), torch.tensor([0.5, 0.3]))
y.grad_fn, y.grad_fn.next_functions
for call in [lambda: torch.binomial(torch.tensor([10, 100]), torch.tensor([0.5, 0.3])),
             lambda: torch.binomial(torch.tensor([10.]), torch.tensor([0.5], dtype=torch.float64)),
             lambda: torch.binomial(torch.tensor([10.]), 0.5),
             lambda: torch.binomial(torch.tensor([10.], dtype=torch.float16), torch.tensor([0.5], dtype=torch.float16))]:
    try:
        call()
    except Exception as e:
        print(type(e), e)
y.sum().backward()
