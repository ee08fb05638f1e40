# torch.distributions: Poisson (counts, log_prob through xlogy/lgamma) and Laplace (rsample, log_prob), kl
import torch
from torch.distributions import Poisson, Laplace, Normal, kl_divergence
torch.set_printoptions(precision=10)
_ = torch.manual_seed(11)
rate = torch.tensor([0.5, 3.0, 12.0], requires_grad=True)
p = Poisson(rate)
p
p.sample()
p.sample((2,))
lp = p.log_prob(torch.tensor([0.0, 2.0, 10.0]))
lp
lp.sum().backward()
rate.grad
p.mean, p.variance, p.mode
Poisson(4.0).log_prob(torch.tensor(3.0))
torch.xlogy(torch.tensor(2.0), torch.tensor(3.0))
kl_divergence(p, Poisson(torch.tensor([1.0, 1.0, 1.0])))
loc = torch.tensor([0.0, 1.5], requires_grad=True)
scale = torch.tensor([1.0, 0.3], requires_grad=True)
l = Laplace(loc, scale)
l
s = l.rsample((3,))
s
s.sum().backward()
loc.grad, scale.grad
l.log_prob(torch.tensor([0.2, 1.0]))
l.cdf(torch.tensor([0.2, 1.0]))
l.icdf(torch.tensor([0.2, 0.9]))
l.entropy(), l.variance, l.stddev
kl_divergence(l, Laplace(torch.zeros(2), torch.ones(2)))
l.expand((2, 2)).batch_shape
try:
    print(kl_divergence(l, Normal(0.0, 1.0)))
except NotImplementedError as err:
    print(err)
try:
    kl_divergence(p, Normal(0.0, 1.0))
except NotImplementedError as err:
    print(err)
Poisson(torch.tensor([1.0])).log_prob(torch.tensor([1.5]))
