# torch.distributions: Normal, Uniform, Exponential, Bernoulli samples after manual_seed, reprs, shapes
import torch
from torch.distributions import Normal, Uniform, Bernoulli, Exponential, Categorical, OneHotCategorical, Independent
from torch.distributions.kl import kl_divergence
torch.set_printoptions(precision=10)
_ = torch.manual_seed(0)
n = Normal(torch.tensor([0.5, -1.0]), torch.tensor([1.5, 0.25]))
n
Normal(0., 1.)
n.batch_shape, n.event_shape
n.sample()
n.sample((3,))
n.rsample((2,))
n.mean, n.stddev, n.variance
n.entropy()
n.log_prob(torch.tensor([0.1, 0.2]))
n.cdf(torch.tensor([0.1, 0.2]))
n.icdf(torch.tensor([0.1, 0.7]))
big = Normal(torch.zeros(20), torch.ones(20))
big.sample()
big.rsample()
u = Uniform(torch.tensor([0.0, 1.0]), torch.tensor([2.0, 5.0]))
u
u.sample()
u.rsample((2,))
u.log_prob(torch.tensor([1.0, 4.5]))
u.entropy(), u.mean, u.variance, u.stddev
e = Exponential(torch.tensor([0.5, 2.0]))
e
e.sample((2,))
e.log_prob(torch.tensor([1.0, 3.0]))
e.entropy(), e.mean, e.variance
b = Bernoulli(torch.tensor([0.3, 0.9, 0.5]))
b
b.sample()
b.sample((2,))
b.log_prob(torch.tensor([1., 0., 1.]))
b.entropy()
b.logits
b.mode
bl = Bernoulli(logits=torch.tensor([-1.0, 2.0]))
bl
bl.probs
bl.log_prob(torch.tensor([0., 1.]))
bl.entropy()
Bernoulli(0.25).sample((4,))
c = Categorical(logits=torch.tensor([[0.1, 1.2, -0.3], [2.0, 0.0, 0.5]]))
c
c.sample((2,))
c.log_prob(torch.tensor([2, 0]))
c.entropy()
c.support
c.enumerate_support()
oh = OneHotCategorical(torch.tensor([0.2, 0.5, 0.3]))
oh
oh.sample((2,))
oh.log_prob(torch.tensor([0., 1., 0.]))
oh.entropy(), oh.mean, oh.variance, oh.event_shape
ind = Independent(Normal(torch.zeros(2, 3), torch.ones(2, 3)), 1)
ind
ind.batch_shape, ind.event_shape
ind.log_prob(torch.ones(2, 3) * 0.5)
ind.entropy()
ind.rsample().shape
ind.support
kl_divergence(n, Normal(torch.tensor([0.0, 0.0]), torch.tensor([1.0, 2.0])))
kl_divergence(c, Categorical(torch.tensor([0.2, 0.3, 0.5])))
kl_divergence(b, Bernoulli(torch.tensor([0.5, 0.5, 0.1])))
kl_divergence(ind, Independent(Normal(torch.ones(2, 3), torch.ones(2, 3) * 2), 1))
n.expand((3, 2))
n.expand((3, 2)).sample()
Normal.arg_constraints
Normal(0., 1.).support
b.arg_constraints
n.has_rsample, b.has_rsample
torch.distributions.Normal
torch.distributions.normal.Normal(1.0, 2.0).log_prob(torch.tensor(0.5))
