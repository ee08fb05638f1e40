import torch
import torch.nn as nn
torch.manual_seed(2)
scores = torch.randn(5, 1)
target = torch.tensor([[1.], [0.], [1.], [1.], [0.]])
print(nn.BCEWithLogitsLoss()(scores, target))
print(nn.BCELoss()(torch.sigmoid(scores), target))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([3.0]))(scores, target))
print(nn.BCEWithLogitsLoss(reduction='none')(scores, target).squeeze())
nn.BCELoss()(scores, target)
