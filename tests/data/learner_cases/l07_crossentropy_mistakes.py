import torch
import torch.nn as nn
torch.manual_seed(7)
logits = torch.randn(4, 3)
labels = torch.tensor([2, 0, 1, 1])
loss_fn = nn.CrossEntropyLoss()
print(loss_fn(logits, labels))
print(nn.CrossEntropyLoss(reduction='none')(logits, labels))
print(nn.CrossEntropyLoss(reduction='sum')(logits, labels))
print(nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]))(logits, labels))
print(nn.CrossEntropyLoss(label_smoothing=0.2)(logits, labels))
probs = torch.softmax(logits, dim=1)
print(probs.sum(dim=1))
# oops, one-hot float labels of the wrong shape
onehot = torch.nn.functional.one_hot(labels, 3)
print(onehot)
loss_fn(logits, onehot)
