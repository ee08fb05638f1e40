import torch
import torch.nn as nn

class Tanh:
  def __call__(self, x):
    self.out = torch.tanh(x)
    return self.out

class Linear:
  def __init__(self, fan_in, fan_out):
    self.weight = torch.ones(fan_in, fan_out)

class Net(nn.Module):
  def __init__(self):
    super().__init__()
    self.fc = nn.Linear(2, 2)

layers = [Linear(3, 2), Tanh(), Linear(2, 1)]
for i, layer in enumerate(layers):
  print(f'layer {i} ({layer.__class__.__name__:>10s})')
print('layer %d (%10s)' % (1, layers[1].__class__.__name__))
[layer.__class__.__name__ for layer in layers]
x = torch.ones(2, requires_grad=True)
x.__class__.__name__, nn.Parameter(torch.ones(1)).__class__.__name__
Net().__class__.__name__, Net().fc.__class__.__name__, nn.Linear(1, 1).__class__.__name__
(3).__class__.__name__, [].__class__.__name__, None.__class__.__name__, 'a'.__class__.__name__
Tanh.__class__.__name__, torch.float32.__class__.__name__
(x * 2).grad_fn.__class__.__name__
