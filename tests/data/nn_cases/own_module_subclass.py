# A learner's nn.Module subclass: printing, parameters(), named_parameters(),
# forward, backward and the gradients it leaves on every parameter
import torch
from torch import nn
import torch.nn.functional as F
torch.manual_seed(2024)


class TinyClassifier(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super(TinyClassifier, self).__init__()
        self.hidden = nn.Linear(n_in, n_hidden)
        self.act = nn.Tanh()
        self.head = nn.Linear(n_hidden, n_out)
        self.scale = nn.Parameter(torch.ones(1) * 0.5)

    def forward(self, x):
        z = self.act(self.hidden(x))
        return self.head(z) * self.scale


clf = TinyClassifier(4, 5, 3)
print(clf)
clf.hidden
sum(p.numel() for p in clf.parameters())
for name, p in clf.named_parameters():
    print(name, tuple(p.shape), p.requires_grad)
[type(p) for p in clf.parameters()][:2]
clf.scale
inputs = torch.randn(6, 4)
labels = torch.tensor([0, 2, 1, 1, 0, 2])
logits = clf(inputs)
logits
loss = F.cross_entropy(logits, labels)
loss
loss.backward()
clf.scale.grad
clf.head.bias.grad
clf.hidden.weight.grad.shape
print([name for name, _ in clf.named_children()])
clf.zero_grad()
clf.head.bias.grad
clf.forward(inputs[:2]).shape
