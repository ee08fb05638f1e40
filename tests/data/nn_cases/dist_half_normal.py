# torch.distributions.HalfNormal (|Normal| through AbsTransform): draws, log_prob (-inf below 0), cdf, grads
import torch
from torch.distributions import HalfNormal
torch.set_printoptions(precision=10)
_ = torch.manual_seed(13)
scale = torch.tensor([0.5, 2.0], requires_grad=True)
h = HalfNormal(scale)
h
h.batch_shape, h.support
h.sample()
s = h.rsample((3,))
s
lp = HalfNormal(scale, validate_args=False).log_prob(torch.tensor([0.3, -1.0]))
lp
h.log_prob(torch.tensor([0.3, 1.0])).sum().backward()
scale.grad
h.cdf(torch.tensor([0.3, 1.0])), h.icdf(torch.tensor([0.5, 0.9]))
h.mean, h.variance, h.entropy()
HalfNormal(1.0).sample((4,))
try:
    HalfNormal(1.0).log_prob(torch.tensor(-0.5))
except ValueError as err:
    print(str(err).splitlines()[0])
