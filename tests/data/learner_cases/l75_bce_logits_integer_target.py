import torch
import torch.nn as nn
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
y = torch.tensor([1, 0, 1])
loss_fn = nn.BCEWithLogitsLoss()
print(loss_fn(x, y.float()))
print(nn.BCEWithLogitsLoss()(x.double(), y.float()).dtype)
for target in (torch.tensor([True, False, True]), y.int()):
    try:
        loss_fn(x, target)
    except RuntimeError as e:
        print(e)
try:
    nn.BCELoss()(x.sigmoid(), y)
except RuntimeError as e:
    print(e)
nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))(x, y)
