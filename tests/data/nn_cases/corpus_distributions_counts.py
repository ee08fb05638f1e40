# torch.distributions: coin and die counts with Multinomial, draws with Categorical
import torch
from torch.distributions.multinomial import Multinomial
from torch.distributions import Categorical

torch.manual_seed(7)
coin = torch.tensor([0.5, 0.5])
tosses = Multinomial(50, coin)
tosses
tosses.sample()
Multinomial(1000, coin).sample() / 1000

die = torch.ones(6) / 6
rolls = Multinomial(1, die).sample((500,))
rolls.shape, rolls.dtype
running = rolls.cumsum(dim=0)
estimates = running / running.sum(dim=1, keepdims=True)
estimates[-1]
tosses.mean, tosses.variance, tosses.batch_shape, tosses.event_shape, tosses.total_count
tosses.log_prob(torch.tensor([20., 30.]))

weighted = Categorical(torch.tensor([1., 3., 6.]))
weighted
draws = weighted.sample((12,))
draws
torch.bincount(draws, minlength=3)
weighted.probs, weighted.logits
weighted.log_prob(torch.tensor([0, 2]))
weighted.entropy()
rows = Categorical(logits=torch.tensor([[0.1, 0.2, 0.3], [2., -1., 0.]]))
rows.sample(), rows.sample((2,)).shape, rows.batch_shape
isinstance(rows, torch.distributions.Categorical)
Multinomial(5)
