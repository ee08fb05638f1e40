# class weights and ignore_index in cross_entropy / nll_loss, on imbalanced classes
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(5)
logits = torch.randn(37, 4, requires_grad=True)
target = torch.randint(0, 4, (37,))
target[::5] = -100
w = torch.tensor([0.2, 1.0, 2.5, 0.7])
loss = F.cross_entropy(logits, target, weight=w)
loss
loss.backward()
logits.grad[:3]
F.cross_entropy(logits, target, weight=w, reduction="sum")
F.cross_entropy(logits, target)
F.nll_loss(F.log_softmax(logits, dim=1), target.clamp(min=0), weight=w)
crit = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 3.0]), ignore_index=1)
x = torch.randn(300, 2)
t = (torch.rand(300) > 0.5).long()
crit(x, t)
nn.CrossEntropyLoss(weight=torch.tensor([1.0, 3.0]))(x, t)
