# torch.distributions.MixtureSameFamily: a 1-D Gaussian mixture fitted a few steps by log-likelihood
import torch
import torch.distributions as D
torch.set_printoptions(precision=10)
_ = torch.manual_seed(8)
logits = torch.zeros(3, requires_grad=True)
means = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)
log_std = torch.zeros(3, requires_grad=True)
data = torch.cat([torch.randn(20) * 0.5 - 2, torch.randn(20) + 3])
opt = torch.optim.Adam([logits, means, log_std], lr=0.05)
for step in range(5):
    gmm = D.MixtureSameFamily(D.Categorical(logits=logits), D.Normal(means, log_std.exp()))
    nll = -gmm.log_prob(data).mean()
    opt.zero_grad()
    nll.backward()
    opt.step()
    print(step, nll.item())
gmm
gmm.batch_shape, gmm.event_shape
gmm.sample((6,))
gmm.mean, gmm.variance
gmm.cdf(torch.tensor([0.0, 1.0]))
means.grad
mv = D.MixtureSameFamily(D.Categorical(torch.tensor([0.3, 0.7])),
                         D.Independent(D.Normal(torch.randn(2, 2), torch.rand(2, 2) + 0.5), 1))
mv
mv.sample((3,))
mv.log_prob(torch.tensor([[0.5, -0.5], [1.0, 1.0]]))
mv.mean
