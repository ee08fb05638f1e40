import torch
import torch.nn as nn
pred = torch.tensor([0.5, 2.0, -1.0, 3.0])
target = torch.tensor([1.0, 2.0, 0.0, 1.0])
print(nn.MSELoss()(pred, target), nn.MSELoss(reduction='sum')(pred, target))
print(nn.L1Loss()(pred, target), nn.L1Loss(reduction='none')(pred, target))
print(nn.SmoothL1Loss()(pred, target), nn.SmoothL1Loss(beta=0.5)(pred, target))
print(nn.HuberLoss(delta=0.5)(pred, target))
logp = torch.log_softmax(torch.tensor([[1.0, 2.0, 0.5]]), dim=1)
print(nn.NLLLoss()(logp, torch.tensor([1])))
print(nn.KLDivLoss(reduction='batchmean')(logp, torch.tensor([[0.2, 0.5, 0.3]])))
print(nn.MSELoss()(pred, target.unsqueeze(1)))
