# torch.distributions: StudentT (normal over sqrt(chi2 / df) draws) and Chi2 (a Gamma), log_prob, entropy, moments
import torch
from torch.distributions import StudentT, Chi2
torch.set_printoptions(precision=10)
_ = torch.manual_seed(15)
t = StudentT(torch.tensor([3.0, 0.8, 2.0]), torch.tensor([0.0, 1.0, -2.0]), torch.tensor([1.0, 2.0, 0.5]))
t
t.batch_shape
t.sample()
loc = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
u = StudentT(torch.tensor([3.0, 5.0, 9.0]), loc, 2.0)
s = u.rsample((2,))
s
s.sum().backward()
loc.grad
t.log_prob(torch.tensor([0.5, 1.0, -1.0]))
t.entropy()
t.mean, t.variance, t.mode
StudentT(4.0).sample((5,))
c = Chi2(torch.tensor([1.0, 4.0]))
c
c.df
c.sample((3,))
c.log_prob(torch.tensor([0.5, 3.0]))
c.mean, c.variance
