import torch
import torch.nn as nn
scores = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
mask = torch.tensor([[True, False, False], [True, True, False]])
print(scores.masked_fill(~mask, float("-inf")).softmax(-1))
x = torch.zeros(5)
x.index_add_(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0]))
print(x, torch.zeros(2, 3).index_add(1, torch.tensor([0, 2]), torch.ones(2, 2)))
for f in [lambda: scores.masked_fill(torch.tensor([True, False]), 0.0),
          lambda: scores.clone().masked_fill_(torch.tensor([True, False]), 0.0),
          lambda: x.index_add_(0, torch.tensor([0]), torch.tensor([1.0, 2.0])),
          lambda: torch.zeros(2, 3).index_add_(1, torch.tensor([0]), torch.ones(3, 1))]:
    try:
        f()
    except RuntimeError as err:
        print(err)
logits = torch.tensor([2.0, 0.5, -1.0])
target = torch.tensor(0)
print(nn.CrossEntropyLoss()(logits, target))
nn.CrossEntropyLoss()(logits.unsqueeze(0), target)
