# torch.distributions: Dirichlet and Beta (gammas in double, normalised), log_prob, entropy, mean/variance/mode
import torch
from torch.distributions import Beta, Dirichlet
torch.set_printoptions(precision=10)
_ = torch.manual_seed(6)
d = Dirichlet(torch.tensor([0.5, 2.0, 3.0]))
d
d.sample()
d.sample((3,))
d.log_prob(torch.tensor([0.2, 0.3, 0.5]))
d.entropy(), d.mean, d.variance, d.mode
b = Beta(torch.tensor([2.0, 0.3]), torch.tensor([5.0, 0.4]))
b
b.sample()
b.sample((4,))
b.rsample()
b.log_prob(torch.tensor([0.25, 0.9]))
b.entropy(), b.mean, b.variance, b.mode
b.concentration1, b.concentration0
Beta(2.0, 2.0)
Beta(2.0, 2.0).sample((5,))
Beta(2.0, 2.0).batch_shape
Dirichlet(torch.ones(2, 3)).sample().shape
x = torch.tensor([2.0, 3.0], requires_grad=True)
lp = Beta(x[0], x[1]).log_prob(torch.tensor(0.4))
lp
lp.backward()
x.grad
try:
    Beta(torch.tensor([1.0]), torch.tensor([-1.0]))
except ValueError as err:
    print(str(err).splitlines()[0])
Dirichlet(torch.tensor([0.5, 0.5], dtype=torch.float64)).sample((3,))
