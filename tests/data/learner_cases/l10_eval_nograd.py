import torch
import torch.nn as nn
torch.manual_seed(5)
model = nn.Sequential(nn.Linear(3, 5), nn.Dropout(0.5), nn.ReLU(), nn.Linear(5, 2))
x = torch.randn(4, 3)
print(model.training)
model.eval()
print(model.training, model[1].training)
with torch.no_grad():
    out = model(x)
print(out.requires_grad)
print(out)
preds = out.argmax(dim=1)
print(preds)
model.train()
print(model[1].training)
y = model(x)
print(y.requires_grad, y.grad_fn)
