import torch
from torch import distributions as D
a = torch.tensor([0.5, 2.0, 3.0])
b = torch.tensor([1.5, 0.7, 3.0])
D.kl_divergence(D.Gumbel(a, b), D.Gumbel(b, a))
D.kl_divergence(D.Beta(a, b), D.Beta(b, a))
D.kl_divergence(D.Dirichlet(a), D.Dirichlet(b))
D.kl_divergence(D.Cauchy(a, b), D.Cauchy(b, a))
D.kl_divergence(D.Pareto(a, b), D.Pareto(b, a))
D.kl_divergence(D.HalfNormal(a), D.HalfNormal(b))
D.kl_divergence(D.Binomial(10, torch.tensor([0.2, 0.5])), D.Binomial(torch.tensor([10., 8.]), torch.tensor([0.4, 0.5])))
D.kl_divergence(D.Binomial(5, torch.tensor([0.2, 0.5])), D.Binomial(torch.tensor([10., 8.]), torch.tensor([0.4, 0.5])))
