# torch.distributions: Gumbel-softmax relaxations (RelaxedOneHotCategorical, RelaxedBernoulli) and straight-through one-hot
import torch
from torch.distributions import RelaxedOneHotCategorical, RelaxedBernoulli, OneHotCategoricalStraightThrough
from torch.distributions.relaxed_categorical import ExpRelaxedCategorical
torch.set_printoptions(precision=10)
_ = torch.manual_seed(14)
logits = torch.tensor([[0.5, -0.2, 1.0], [0.0, 0.3, -1.0]], requires_grad=True)
r = RelaxedOneHotCategorical(torch.tensor(0.5), logits=logits)
r
r.batch_shape, r.event_shape
y = r.rsample()
y
lp = r.log_prob(y)
lp
(y[:, 0].sum() + lp.sum()).backward()
logits.grad
r.sample((2,))
e = ExpRelaxedCategorical(torch.tensor(2.0), probs=torch.tensor([0.2, 0.3, 0.5]))
e
e.rsample()
rb = RelaxedBernoulli(torch.tensor(0.3), probs=torch.tensor([0.1, 0.6, 0.9]))
rb
z = rb.rsample((2,))
z
rb.log_prob(torch.tensor([0.2, 0.5, 0.95]))
st = OneHotCategoricalStraightThrough(logits=logits)
a = st.rsample()
a
a.grad_fn
(a * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
logits.grad
