import torch
from torch.distributions import Gumbel, Weibull, Pareto, HalfCauchy, Binomial, Kumaraswamy, InverseGamma, FisherSnedecor, NegativeBinomial
from torch.distributions.transforms import PowerTransform, ComposeTransform, SoftmaxTransform, SoftplusTransform, ExpTransform, AffineTransform
torch.manual_seed(0)
g = Gumbel(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
g
g.sample()
g.sample((3,))
g.log_prob(torch.tensor([0.5, -1.0]))
g.mean, g.mode, g.stddev, g.variance, g.entropy()
g.cdf(torch.tensor([0.5, 2.0])), g.icdf(torch.tensor([0.25, 0.9]))
g.support
w = Weibull(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0]))
w
w.sample((2,))
w.log_prob(torch.tensor([0.3, 1.5]))
w.mean, w.mode, w.variance, w.entropy()
w.cdf(torch.tensor([0.3, 1.5]))
p = Pareto(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 3.0]))
p
p.sample((2,))
p.log_prob(torch.tensor([1.3, 2.5]))
p.mean, p.mode, p.variance, p.entropy(), p.support
h = HalfCauchy(torch.tensor([1.0, 2.0]))
h
h.sample((2,))
h.log_prob(torch.tensor([0.3, 1.5])), h.cdf(torch.tensor([0.3, 1.5])), h.icdf(torch.tensor([0.3, 0.5]))
h.mean, h.mode, h.variance, h.entropy()
b = Binomial(10, torch.tensor([0.2, 0.7]))
b
b.sample((3,))
b.log_prob(torch.tensor([2.0, 7.0]))
b.mean, b.mode, b.variance, b.entropy()
b.logits
b.enumerate_support()
b2 = Binomial(torch.tensor([3., 5.]), logits=torch.tensor([0.1, -2.0]))
b2.probs, b2.sample(), b2.log_prob(torch.tensor([1.0, 0.0]))
k = Kumaraswamy(torch.tensor([2.0, 0.5]), torch.tensor([3.0, 1.5]))
k.sample((2,)), k.mean, k.variance, k.entropy(), k.log_prob(torch.tensor([0.3, 0.6]))
ig = InverseGamma(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 0.5]))
ig.sample((2,)), ig.mean, ig.mode, ig.variance, ig.entropy(), ig.log_prob(torch.tensor([0.3, 0.6]))
f = FisherSnedecor(torch.tensor([3.0, 6.0]), torch.tensor([5.0, 7.0]))
f.sample((2,)), f.mean, f.mode, f.variance, f.log_prob(torch.tensor([0.3, 1.6]))
nb = NegativeBinomial(torch.tensor([3.0, 5.0]), torch.tensor([0.3, 0.6]))
nb.sample((2,)), nb.mean, nb.mode, nb.variance, nb.log_prob(torch.tensor([2.0, 7.0])), nb.logits
t = PowerTransform(torch.tensor(2.0))
t, t(torch.tensor([1.5, 3.0])), t.inv(torch.tensor([4.0])), t.log_abs_det_jacobian(torch.tensor([1.5]), torch.tensor([2.25]))
c = ComposeTransform([ExpTransform(), AffineTransform(1.0, 2.0)])
c, c(torch.tensor([0.0, 1.0])), c.inv(torch.tensor([3.0])), c.log_abs_det_jacobian(torch.tensor([0.5]), c(torch.tensor([0.5])))
s = SoftmaxTransform()
s, s(torch.tensor([1.0, 2.0, 3.0])), s.inv(torch.tensor([0.2, 0.3, 0.5]))
sp = SoftplusTransform()
sp, sp(torch.tensor([-1.0, 2.0])), sp.inv(torch.tensor([0.5, 2.0])), sp.log_abs_det_jacobian(torch.tensor([-1.0]), sp(torch.tensor([-1.0])))
Gumbel(0.0, 1.0).sample((3,))
x = torch.tensor([1.0, 2.0], requires_grad=True)
Gumbel(x, 1.0).rsample().sum().backward()
x.grad
Weibull(1.0, -1.0)
