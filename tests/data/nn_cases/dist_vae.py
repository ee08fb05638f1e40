# torch.distributions: a tiny VAE step (Normal rsample, kl_divergence to N(0, 1), Bernoulli likelihood)
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Bernoulli, Independent, kl_divergence
torch.set_printoptions(precision=10)
_ = torch.manual_seed(7)
enc = nn.Linear(6, 4)
dec = nn.Linear(2, 6)
opt = torch.optim.SGD(list(enc.parameters()) + list(dec.parameters()), lr=0.1)
x = (torch.rand(3, 6) > 0.5).float()
for step in range(3):
    h = enc(x)
    mu, logvar = h[:, :2], h[:, 2:]
    q = Normal(mu, torch.exp(0.5 * logvar))
    z = q.rsample()
    prior = Normal(torch.zeros_like(mu), torch.ones_like(mu))
    kl = kl_divergence(q, prior).sum(-1)
    px = Independent(Bernoulli(logits=dec(z)), 1)
    rec = px.log_prob(x)
    loss = (kl - rec).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item(), kl.tolist(), rec.tolist())
z
z.grad_fn
q
px
enc.weight.grad
dec.bias.grad
lp = q.log_prob(z)
lp
lp.grad_fn
q.entropy().sum()
F.binary_cross_entropy_with_logits(dec(z), x, reduction="none").sum(-1)
