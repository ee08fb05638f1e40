# a learner's nn.Module subclass through Module's API: setattr/getattr by name, super() calls
# into Module's public methods, the older nn.Module.__init__(self) spelling, a subclass of a
# library layer, hooks and apply() calling the learner's methods and functions
import torch
import torch.nn as nn

class Stack(nn.Module):
    def __init__(self, sizes):
        nn.Module.__init__(self)
        self.depth = len(sizes) - 1
        for i in range(self.depth):
            setattr(self, f"layer{i}", nn.Linear(sizes[i], sizes[i + 1]))

    def forward(self, x):
        for i in range(self.depth):
            x = getattr(self, f"layer{i}")(x)
            if i < self.depth - 1:
                x = torch.relu(x)
        return x

    def train(self, mode=True):
        print("train called with", mode)
        return super().train(mode)

torch.manual_seed(3)
s = Stack([2, 3, 3, 1])
s
hasattr(s, "layer2"), hasattr(s, "layer3"), s.depth
s.eval()
s.training, s.layer0.training
[name for name, _ in s.named_parameters()]
out = s(torch.tensor([[1.0, -1.0]]))
out.detach()

class Recorder:
    def __init__(self):
        self.calls = []
    def hook(self, module, inputs, output):
        self.calls.append(tuple(output.shape))

rec = Recorder()
h = s.layer1.register_forward_hook(rec.hook)
s(torch.ones(4, 2)).shape
rec.calls
h.remove()

def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.ones_(m.weight)
        nn.init.zeros_(m.bias)
s.apply(init_weights)
s(torch.ones(1, 2)).detach()

class Doubled(nn.Linear):
    def __init__(self, n):
        super().__init__(n, n, bias=False)
        self.factor = 2

    def forward(self, input):
        return super().forward(input) * self.factor

torch.manual_seed(0)
d = Doubled(2)
d
d(torch.ones(2))
isinstance(d, nn.Linear), isinstance(d, nn.Module), type(d)
d.factor = 3
d(torch.ones(2))
list(d.state_dict().keys())
