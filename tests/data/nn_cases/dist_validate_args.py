# torch.distributions: validate_args messages
import torch
from torch.distributions import Normal, Bernoulli, Categorical, Uniform, Exponential
try:
    Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, -1.0]))
except ValueError as err:
    print(err)
try:
    Normal(0.0, 0.0)
except ValueError as err:
    print(err)
try:
    Bernoulli(torch.tensor([0.5, 1.5]))
except ValueError as err:
    print(err)
try:
    Bernoulli(0.5).log_prob(torch.tensor(0.5))
except ValueError as err:
    print(err)
try:
    Categorical(torch.tensor([0.5, 0.5])).log_prob(torch.tensor(3))
except ValueError as err:
    print(err)
try:
    Uniform(1.0, 0.0)
except ValueError as err:
    print(err)
try:
    Exponential(torch.tensor([1.0, 2.0])).log_prob(torch.tensor([-1.0, 1.0]))
except ValueError as err:
    print(err)
try:
    Normal(torch.zeros(2), torch.ones(2)).log_prob(torch.zeros(3))
except ValueError as err:
    print(err)
try:
    torch.distributions.kl_divergence(Normal(0., 1.), Bernoulli(0.5))
except NotImplementedError as err:
    print(err)
Normal(0.0, -1.0, validate_args=False)
Normal(0.0, -1.0, validate_args=False).log_prob(torch.tensor(1.0))
Uniform(0.0, 1.0).log_prob(torch.tensor(2.0))
Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, -1.0]))
