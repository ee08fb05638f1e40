import torch
import torch.nn.functional as F
torch.manual_seed(1)
x = torch.randn(24, requires_grad=True)
w = torch.randn(24)
for name, f in [("sigmoid", torch.sigmoid), ("tanh", torch.tanh), ("silu", F.silu), ("softplus", F.softplus), ("elu", F.elu)]:
    g, = torch.autograd.grad((f(x) * w).sum(), x)
    print(name, g.tolist())
row = torch.randn(1, 20, requires_grad=True)
(torch.softmax(row, -1) * torch.arange(20.0)).sum().backward()
row.grad.tolist()
rows = torch.randn(3, 40, requires_grad=True)
(torch.log_softmax(rows, -1) * torch.randn(3, 40)).sum().backward()
rows.grad[0].tolist()
