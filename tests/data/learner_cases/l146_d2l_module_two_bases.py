# A model class with two bases, as d2l's Module(nn.Module, HyperParameters): the learner's
# mixin's methods and nn.Module's machinery on one instance; Python's MRO for diamonds and
# its error for an inconsistent order.
import torch
from torch import nn

class Settings:
    def remember(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.names = sorted(kwargs)

    def describe(self):
        return ', '.join(f'{k}={getattr(self, k)}' for k in self.names)

class Model(nn.Module, Settings):
    def __init__(self, hidden, lr=0.05):
        super().__init__()
        self.remember(hidden=hidden, lr=lr)
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, X):
        return self.net(X)

torch.manual_seed(3)
model = Model(4)
model
print(model.describe())
print(isinstance(model, Settings), isinstance(model, nn.Module), type(model))
print([name for name, p in model.named_parameters()])
X = torch.randn(5, 3)
y = X.sum(1, keepdim=True)
opt = torch.optim.SGD(model.parameters(), lr=model.lr)
for step in range(3):
    loss = ((model(X) - y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())

class Base:
    def tag(self):
        return 'Base'

class Left(Base):
    def tag(self):
        return 'Left>' + super().tag()

class Right(Base):
    def tag(self):
        return 'Right>' + super().tag()

class Both(Left, Right):
    def tag(self):
        return 'Both>' + super().tag()

print(Both().tag())
print(isinstance(Both(), Right))
Both

class Wrong(Base, Left):
    pass
