# torch.distributions: a tiny REINFORCE loop (Categorical policy, log_prob * return)
import torch
import torch.nn as nn
from torch.distributions import Categorical
torch.set_printoptions(precision=10)
_ = torch.manual_seed(3)
policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 2))
opt = torch.optim.Adam(policy.parameters(), lr=0.01)
states = torch.randn(5, 4)
for episode in range(4):
    log_probs = []
    rewards = []
    for t in range(5):
        logits = policy(states[t])
        dist = Categorical(logits=logits)
        action = dist.sample()
        log_probs.append(dist.log_prob(action))
        rewards.append(1.0 if action.item() == (t % 2) else -0.5)
    returns = []
    g = 0.0
    for r in reversed(rewards):
        g = r + 0.9 * g
        returns.insert(0, g)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + 1e-8)
    loss = -(torch.stack(log_probs) * returns).sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(episode, rewards, loss.item())
loss
loss.grad_fn
policy[0].weight.grad[0]
d = Categorical(probs=torch.softmax(policy(states), -1))
d.entropy()
d.probs
