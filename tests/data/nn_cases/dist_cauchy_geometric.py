# torch.distributions: Cauchy (cauchy_ draws, log_prob, cdf) and Geometric (uniform_ draws, log_prob, entropy)
import torch
from torch.distributions import Cauchy, Geometric, kl_divergence
torch.set_printoptions(precision=10)
_ = torch.manual_seed(9)
loc = torch.tensor([0.0, 2.0], requires_grad=True)
c = Cauchy(loc, torch.tensor([1.0, 0.5]))
c
c.sample()
s = c.rsample((3,))
s
c.log_prob(torch.tensor([0.5, 1.0]))
c.cdf(torch.tensor([0.5, 1.0])), c.icdf(torch.tensor([0.25, 0.9]))
c.entropy(), c.mean, c.variance
g = Geometric(torch.tensor([0.2, 0.5, 0.9]))
g
g.sample()
g.sample((3,))
g.log_prob(torch.tensor([0.0, 2.0, 5.0]))
g.entropy(), g.mean, g.variance
Geometric(logits=torch.tensor([0.0, -1.0])).log_prob(torch.tensor([1.0, 3.0]))
Geometric(logits=torch.tensor([0.0, -1.0])).probs
try:
    Geometric(torch.tensor([0.0, 0.5]))
except ValueError as err:
    print(err)
try:
    print(kl_divergence(g, Geometric(0.3)))
except NotImplementedError as err:
    print(err)
t = torch.empty(2, 3).t()
_ = t.cauchy_()
t
