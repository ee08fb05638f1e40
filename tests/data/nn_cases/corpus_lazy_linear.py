# nn.LazyLinear: in_features from the first batch, then an ordinary Linear
import torch
from torch import nn
torch.manual_seed(11)
head = nn.LazyLinear(3)
head
head.weight
[p for p in head.parameters()]
isinstance(head, nn.Linear), type(head) == nn.Linear
batch = torch.rand(5, 7)
out = head(batch)
out.shape
head
type(head) == nn.Linear
head.in_features, head.weight.shape, head.bias.shape
head.bias
stack = nn.Sequential(nn.LazyLinear(4, bias=False), nn.Tanh(), nn.LazyLinear(2))
stack
stack(torch.rand(2, 6))
[(name, tuple(p.shape)) for name, p in stack.named_parameters()]
stack[0].bias is None
shared = nn.LazyLinear(6)
twice = nn.Sequential(nn.LazyLinear(6), nn.ReLU(), shared, nn.ReLU(), shared)
twice(torch.rand(1, 3)).shape
twice[2].weight is twice[4].weight, twice[2].in_features
loss = twice(torch.rand(4, 3)).pow(2).sum()
loss.backward()
twice[2].weight.grad.shape
