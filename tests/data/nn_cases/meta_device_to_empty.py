import torch
import torch.nn as nn
with torch.device("meta"):
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
model[0].weight
m2 = model.to_empty(device="cpu")
m2 is model
model[0].weight.shape, model[0].weight.device, model[0].weight.requires_grad
_ = torch.manual_seed(0)
for layer in model:
    if isinstance(layer, nn.Linear):
        layer.reset_parameters()
model[2].weight
model(torch.ones(1, 4))
