import torch
from torch import distributions as D
torch.manual_seed(1)
g = D.Gumbel(torch.zeros(3), torch.ones(3)).expand((2, 3))
g.batch_shape, g.sample().shape, g.loc.shape
w = D.Weibull(torch.tensor([1.5]), torch.tensor([2.0])).expand((4,))
w.sample(), w.mean
s = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([2.0, 0.7], requires_grad=True)
x = D.Weibull(s, c).rsample((3,))
x
x.sum().backward()
s.grad, c.grad
k1 = torch.tensor([2.0, 3.0], requires_grad=True)
kk = D.Kumaraswamy(k1, torch.tensor([1.5, 2.5]))
y = kk.rsample()
y.grad_fn
y.sum().backward()
k1.grad
kk.mode
p = D.Pareto(torch.tensor(1.0, dtype=torch.float64), 3.0)
p.sample((4,)), p.log_prob(torch.tensor(2.0, dtype=torch.float64)), p.cdf(torch.tensor(2.0, dtype=torch.float64))
D.Binomial(10, 0.5).sample()
D.Binomial(10, 0.5).sample((5,))
b = D.Binomial(torch.tensor([5.0, 10.0]), torch.tensor(0.3))
b.batch_shape, b.sample((2,))
b.support
D.Binomial(torch.tensor(4.0), probs=torch.tensor([0.1, 0.5, 0.9])).entropy()
D.Binomial(torch.tensor(4.0), probs=torch.tensor([0.1, 0.5, 0.9])).expand((2, 3)).sample()
nb = D.NegativeBinomial(4, logits=torch.tensor([0.0, 1.0]))
nb.probs, nb.mean, nb.variance, nb.sample((3,))
nb
D.kl_divergence(D.Gumbel(0., 1.), D.Gumbel(1., 1.))
t = D.TransformedDistribution(D.Normal(torch.zeros(3), torch.ones(3)), [D.transforms.SoftmaxTransform()])
t.sample(), t.event_shape, t.batch_shape
ct = D.transforms.ComposeTransform([D.transforms.AffineTransform(0., 2.), D.transforms.ExpTransform()])
td = D.TransformedDistribution(D.Normal(0., 1.), ct)
td.sample((3,)), td.log_prob(torch.tensor([0.5, 2.0])), td.cdf(torch.tensor(1.0))
ct.inv
ct.inv(torch.tensor([1.0, 2.0]))
ct.domain, ct.codomain, ct.bijective
D.transforms.identity_transform
D.transforms.identity_transform(torch.tensor([1.0]))
D.constraints.half_open_interval(0., 1.)
D.InverseGamma(torch.tensor([2.0]), torch.tensor([1.0])).sample((3,))
D.FisherSnedecor(3.0, 4.0).sample((3,))
D.Binomial(10, torch.tensor([0.2, 0.7])).log_prob(torch.tensor([2.5, 7.0]))
