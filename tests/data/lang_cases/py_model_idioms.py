import torch
from torch import nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
total = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"{total=}", f"{total!r:>8}|", "%d params" % total, "{:,}".format(total * 1000))
for i, (name, p) in enumerate(model.named_parameters()):
    print(i, name, tuple(p.shape))
sizes = {name: p.shape for name, p in model.state_dict().items()}
sizes
it = iter(model.parameters())
next(it).shape
gen = (m for m in model.modules())
type(gen)
next(gen)
isinstance(model[0], nn.Linear), type(model[1])
class Wrapper:
    def __init__(self, model):
        self.model = model
        self.calls = 0
    def predict(self, x):
        self.calls += 1
        with torch.no_grad():
            return self.model(x).argmax(dim=1)
w = Wrapper(model)
w.predict(torch.ones(3, 4)), w.calls
