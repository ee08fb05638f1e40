# GELU (exact erf form) to the last bit in float32: contiguous tensors go through oneDNN's
# kernel in PyTorch, single elements and transposed views through PyTorch's own; a small
# GELU network trained for a few steps prints its losses and gradients in full
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(6, 5) * 3
F.gelu(x).tolist()
F.gelu(x.t()).tolist()
F.gelu(torch.tensor([-0.7])).item(), F.gelu(torch.tensor(2.3)).item()
a = x.clone().requires_grad_()
F.gelu(a).backward(torch.ones(6, 5) * 0.5)
a.grad.tolist()
b = x.t().requires_grad_()
(F.gelu(b) * x.t()).sum().backward()
c = x.t().requires_grad_()
F.gelu(c).backward(torch.ones(6, 5).t() * 0.25)
c.grad.tolist()
b.grad.tolist()
big = torch.randn(40000)
F.gelu(big).sum().item(), F.gelu(big)[-5:].tolist()
net = nn.Sequential(nn.Linear(4, 16), nn.GELU(), nn.Linear(16, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
data, target = torch.randn(32, 4), torch.randn(32, 1)
for step in range(5):
    opt.zero_grad()
    loss = F.mse_loss(net(data), target)
    loss.backward()
    opt.step()
    print(step, loss.item())
net[0].weight.grad[0].tolist()
gelu_tanh = nn.GELU(approximate="tanh")
gelu_tanh(x[0]).tolist()
# other dtypes keep the float64 formula; a 0-d float64 input too
F.gelu(torch.tensor(2.3, dtype=torch.float64)).item()
d = torch.tensor(-0.4, dtype=torch.float64, requires_grad=True)
F.gelu(d).backward()
d.grad.item()
