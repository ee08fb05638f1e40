import torch
t = torch.tensor([0.5, 1.0, 1.0, 2.5, -1.0])
torch.histogram(t, bins=4)
torch.histogram(t, 3, range=(0., 3.), density=True)
t.histogram(torch.tensor([0., 1., 2.]))
torch.histogram(t, bins=2, weight=torch.tensor([1., 2., 3., 4., 5.]))
hist, edges = torch.histogram(torch.ones(3), 2)
hist, edges
g = torch.Generator().manual_seed(2147483647)
h = torch.tanh(torch.randn(32, 100, generator=g) * 2)
hy, hx = torch.histogram(h, density=True)
hy[:10], hx[:4], hy.sum().item(), hx[-1].item()
torch.histogram(torch.linspace(-1, 1, 1001), bins=10).hist
torch.histogram(h.double(), 5)
w = torch.randn(4, generator=g, requires_grad=True)
out = torch.histogram(w, 3)
out.hist.grad_fn, out.bin_edges.requires_grad
torch.histogram(torch.tensor([0.5, float('nan'), 2.]), torch.tensor([0., 1., 2.]))
torch.histogram(h, torch.tensor([0., 1.], dtype=torch.float64))
