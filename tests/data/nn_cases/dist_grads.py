# torch.distributions: log_prob gradients through loc/scale/probs/low/high/rate
import torch
from torch.distributions import Normal, Bernoulli, Uniform, Exponential, Categorical, OneHotCategorical
torch.set_printoptions(precision=10)
loc = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
scale = torch.tensor([0.7, 1.5, 0.2], requires_grad=True)
n = Normal(loc, scale)
lp = n.log_prob(torch.tensor([0.0, 0.5, 1.9]))
lp
lp.sum().backward()
loc.grad, scale.grad
p = torch.tensor([0.2, 0.6, 0.95], requires_grad=True)
b = Bernoulli(p)
out = b.log_prob(torch.tensor([1.0, 0.0, 1.0])) + b.entropy()
out
out.sum().backward()
p.grad
lo = torch.tensor([-1.0, 0.5], requires_grad=True)
hi = torch.tensor([2.0, 3.0], requires_grad=True)
u = Uniform(lo, hi)
_ = torch.manual_seed(1)
s = u.rsample((3,))
s
s.sum().backward()
lo.grad, hi.grad
rate = torch.tensor([0.5, 3.0], requires_grad=True)
e = Exponential(rate)
r = e.rsample((2,))
r
(e.log_prob(torch.tensor([1.0, 0.25])).sum() + r.sum()).backward()
rate.grad
w = torch.tensor([1.0, -0.5, 0.25], requires_grad=True)
c = Categorical(logits=w)
v = c.log_prob(torch.tensor([0, 2, 2])).sum() + c.entropy()
v
v.backward()
w.grad
oh = OneHotCategorical(logits=w)
oh.log_prob(torch.tensor([[0., 0., 1.], [1., 0., 0.]]))
oh.perplexity()
n.entropy().grad_fn
