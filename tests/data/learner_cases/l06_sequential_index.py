import torch
import torch.nn as nn
torch.manual_seed(3)
model = nn.Sequential(
    nn.Linear(2, 4),
    nn.Tanh(),
    nn.Linear(4, 1),
    nn.Sigmoid(),
)
model
model[0]
model[-1]
len(model)
model[0].weight.shape
model[2].bias
print(model(torch.tensor([[0.5, -0.5]])))
for i, layer in enumerate(model):
    print(i, layer)
model[4]
