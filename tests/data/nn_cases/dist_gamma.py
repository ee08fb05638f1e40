# torch.distributions.Gamma: Marsaglia-Tsang draws after manual_seed (alpha < 1 boosted), log_prob, entropy, kl
import torch
from torch.distributions import Gamma, kl_divergence
torch.set_printoptions(precision=10)
_ = torch.manual_seed(4)
g = Gamma(torch.tensor([0.5, 2.0, 9.0]), torch.tensor([1.0, 0.5, 3.0]))
g
g.sample()
g.sample((4,))
torch.randn(3)
g.sample((2,))
torch.rand(2)
Gamma(3.0, 2.0).sample((20,))
Gamma(torch.tensor([0.01, 0.2]), torch.tensor([1.0, 1.0])).sample((3,))
Gamma(torch.tensor([2.5], dtype=torch.float64), torch.tensor([1.0], dtype=torch.float64)).sample((5,))
g.log_prob(torch.tensor([0.3, 4.0, 2.5]))
g.entropy()
g.mean, g.variance, g.mode
rate = torch.tensor([1.5, 0.7], requires_grad=True)
h = Gamma(torch.tensor([2.0, 3.0]), rate)
s = h.rsample((2,))
s
s.sum().backward()
rate.grad
kl_divergence(h, Gamma(torch.tensor([1.0, 1.0]), torch.tensor([1.0, 2.0])))
c = torch.tensor([2.0, 3.0], requires_grad=True)
with torch.no_grad():
    Gamma(c, torch.ones(2)).rsample()
Gamma(c, torch.ones(2)).sample()
Gamma(c, torch.ones(2)).log_prob(torch.tensor([1.0, 2.0]))
