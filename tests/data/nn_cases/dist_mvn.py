# torch.distributions: MultivariateNormal (scale_tril, covariance_matrix, precision_matrix), log_prob grads, rsample, kl
import torch
from torch.distributions import MultivariateNormal, kl_divergence
from torch.distributions.multivariate_normal import MultivariateNormal as MVN
torch.set_printoptions(precision=10)
_ = torch.manual_seed(5)
loc = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
L = torch.tensor([[1.2, 0.0, 0.0], [0.3, 0.8, 0.0], [-0.5, 0.4, 1.5]], requires_grad=True)
m = MultivariateNormal(loc, scale_tril=L)
m
m.batch_shape, m.event_shape
x = m.rsample((2,))
x
lp = m.log_prob(torch.tensor([[0.1, 0.2, 0.3], [1.0, -2.0, 0.5]]))
lp
lp.sum().backward()
torch.set_printoptions(precision=5)   # the triangular solve's backward is LAPACK/BLAS: last bits may differ
loc.grad
L.grad
torch.set_printoptions(precision=10)
m.entropy()
m.variance
m.covariance_matrix
m.sample()
cov = torch.tensor([[2.0, 0.6], [0.6, 1.0]])
c = MultivariateNormal(torch.zeros(2), covariance_matrix=cov)
c
c.scale_tril
c.log_prob(torch.tensor([0.5, -0.3]))
c.sample((3,))
p = MVN(torch.ones(2), precision_matrix=torch.tensor([[1.5, 0.2], [0.2, 0.7]]))
torch.set_printoptions(precision=5)   # cholesky and solve_triangular: LAPACK
p.scale_tril
p.log_prob(torch.tensor([0.5, -0.3]))
kl_divergence(c, p)
b = MultivariateNormal(torch.zeros(4, 2), torch.eye(2))
b
b.batch_shape
b.log_prob(torch.randn(4, 2))
b.rsample().shape
c.expand((3,)).batch_shape
try:
    MultivariateNormal(torch.zeros(2), covariance_matrix=torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except ValueError as err:
    print(err)
try:
    MultivariateNormal(torch.zeros(2))
except ValueError as err:
    print(err)
MultivariateNormal(torch.zeros(2), scale_tril=torch.tensor([[1.0, 1.0], [0.0, 1.0]]))
