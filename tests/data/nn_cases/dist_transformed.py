# torch.distributions: LogNormal and TransformedDistribution (a tanh-squashed Gaussian policy, affine, sigmoid)
import torch
from torch.distributions import Normal, LogNormal, TransformedDistribution, Independent
from torch.distributions.transforms import TanhTransform, AffineTransform, SigmoidTransform, ExpTransform
torch.set_printoptions(precision=10)
_ = torch.manual_seed(12)
ln = LogNormal(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 0.25]))
ln
ln.batch_shape, ln.event_shape
ln.sample()
ln.rsample((2,))
ln.log_prob(torch.tensor([1.5, 2.0]))
ln.mean, ln.variance, ln.entropy()
ln.cdf(torch.tensor([1.5, 2.0]))
mu = torch.tensor([[0.1, -0.4], [1.2, 0.0]], requires_grad=True)
std = torch.tensor([[0.5, 0.9], [0.3, 1.1]], requires_grad=True)
pi = TransformedDistribution(Normal(mu, std), [TanhTransform()])
a = pi.rsample()
a
logp = pi.log_prob(a).sum(-1)
logp
logp.sum().backward()
mu.grad, std.grad
squash = Independent(TransformedDistribution(Normal(torch.zeros(3), torch.ones(3)), [SigmoidTransform(), AffineTransform(-1.0, 2.0)]), 1)
x = squash.sample()
x
squash.log_prob(x)
squash.batch_shape, squash.event_shape
TanhTransform()
TanhTransform().inv
ExpTransform()(torch.tensor([0.0, 1.0]))
ExpTransform().inv(torch.tensor([1.0, 2.0]))
AffineTransform(torch.tensor([1.0, 2.0]), 3.0).log_abs_det_jacobian(torch.zeros(2), torch.zeros(2))
sc = TransformedDistribution(Normal(0.0, 1.0), [AffineTransform(1.0, -2.0)])
sc.cdf(torch.tensor([0.0, 2.0]))
sc.icdf(torch.tensor([0.25]))
sc.sample((3,))
